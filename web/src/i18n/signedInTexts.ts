import i18n from './index';
import texts from './pt-BR.json?raw';

// Every pt-BR text, loaded with the signed-in layout (router.tsx); the entry holds only the
// signed-out ones. `?raw` makes the file a module apart from the entry's named imports of it.
i18n.addResourceBundle('pt-BR', 'translation', JSON.parse(texts) as object, true, true);
