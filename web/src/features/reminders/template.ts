/** The template variables the server knows (a text with another {name} is refused on save). */
export const VARIABLES = ['nome', 'usuario', 'vencimento', 'dias', 'pacote', 'link_renovacao', 'whatsapp_revenda'];

/** The first {name} in `text` that is not a template variable, or undefined. */
export function unknownVariable(text: string): string | undefined {
  for (const m of text.matchAll(/\{([^{}\s]*)\}/g)) if (!VARIABLES.includes(m[1] ?? '')) return m[1];
  return undefined;
}
