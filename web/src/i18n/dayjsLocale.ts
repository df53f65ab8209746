import dayjs from 'dayjs';
import 'dayjs/locale/pt-br';
import i18n, { currentLang } from './index';

/** dayjs speaks the UI language (month names of the date pickers and charts). */
function apply(): void {
  dayjs.locale(currentLang() === 'pt-BR' ? 'pt-br' : 'en');
}

apply();
i18n.on('languageChanged', apply);
