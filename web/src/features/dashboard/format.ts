import dayjs from 'dayjs';

const numberFormat = new Intl.NumberFormat('pt-BR');

/** Integer in pt-BR format (1.234.567), whatever the UI language (as the credits in the top bar). */
export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

/** Epoch seconds as dd/MM/YYYY HH:mm in the browser's time zone. */
export function formatExpiry(epochSeconds: number): string {
  return dayjs.unix(epochSeconds).format('DD/MM/YYYY HH:mm');
}

/** Brazilian country code; the panel's WhatsApp links always carry it. */
const COUNTRY = '55';

/**
 * Digits of a stored WhatsApp number with the country prefix 55, or null when there is no usable number.
 * Numbers already written with 55 in front (12-13 digits: 55 + area code + 8-9 digits) are not prefixed twice.
 */
export function whatsappDigits(raw: string | null | undefined): string | null {
  const digits = (raw ?? '').replace(/\D+/g, '');
  if (digits.length < 8) return null;
  if (digits.startsWith(COUNTRY) && digits.length >= 12) return digits;
  return `${COUNTRY}${digits}`;
}

/** https://wa.me/55<digits>?text=<message>, or null without a number. */
export function whatsappLink(raw: string | null | undefined, message: string): string | null {
  const digits = whatsappDigits(raw);
  return digits ? `https://wa.me/${digits}?text=${encodeURIComponent(message)}` : null;
}

/**
 * News body as text: the old panel stored it URL-encoded. Decodes it when it is valid percent-encoding
 * ('+' kept as is), otherwise returns it untouched; line endings become '\n'.
 */
export function decodeNewsBody(body: string): string {
  let text = body;
  try {
    text = decodeURIComponent(body);
  } catch {
    text = body;
  }
  return text.replace(/\r\n?/g, '\n');
}

/** The decoded body split into lines (rendered with <br /> between them). */
export function newsLines(body: string): string[] {
  return decodeNewsBody(body).split('\n');
}
