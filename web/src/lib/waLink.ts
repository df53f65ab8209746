/** wa.me links: no imports, so the light pages (src/public) use them too. */

/** Brazilian country code: every wa.me link carries it. */
const COUNTRY = '55';

/**
 * Digits for wa.me: 'ddd+número' gets 55 in front; a number already written with 55 (12-13 digits)
 * is kept; leading trunk zeros ('011 ...') are dropped. Undefined without a usable number.
 */
export function whatsappNumber(raw: string | null | undefined): string | undefined {
  const digits = (raw ?? '').replace(/\D/g, '').replace(/^0+/, '');
  if (digits.length < 8) return undefined;
  if (digits.startsWith(COUNTRY) && digits.length >= 12) return digits;
  return `${COUNTRY}${digits}`;
}

export function whatsappUrl(number: string, text: string): string {
  return `https://wa.me/${number}?text=${encodeURIComponent(text)}`;
}
