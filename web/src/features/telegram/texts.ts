import { addTexts } from '../../i18n/addTexts';
import { telegram } from '../../i18n/pt-BR.json?telegram-texts';

// This feature's own pt-BR texts, loaded with the files that use them (i18n/textParts.test.ts checks each does).
addTexts({ telegram });
