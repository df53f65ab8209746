import i18n from './index';

/**
 * Adds pt-BR texts to the ones loaded. A feature's own texts come with its pages (the feature's
 * `texts.ts`); the entry holds the signed-out texts and the signed-in layout the shared ones.
 */
export function addTexts(texts: Record<string, unknown>): void {
  i18n.addResourceBundle('pt-BR', 'translation', texts, true, true);
}
