import { addTexts } from '../../i18n/addTexts';
import { trialPage } from '../../i18n/pt-BR.json?trialpage-texts';

// This feature's own pt-BR texts, loaded with the files that use them (i18n/textParts.test.ts checks each does).
addTexts({ trialPage });
