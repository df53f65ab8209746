// WhatsApp numbers asked for on a trial page: Brazilian mobiles only, as digits with the country
// code (what the gateway takes and what is stored, so every way of writing one number is one
// number): "(11) 99999-0000", "+55 11 99999-0000", "011999990000" -> "5511999990000".

/** 55 + a two-digit area code (no 0 in it) + a nine-digit mobile starting with 9; undefined otherwise. */
export function brazilianMobile(raw: string): string | undefined {
  if (!/^[\d\s()+.-]{8,30}$/.test(raw.trim())) return undefined;
  let digits = raw.replace(/\D/g, '').replace(/^0+/, '');
  if (digits.length === 13 && digits.startsWith('55')) digits = digits.slice(2);
  if (!/^[1-9]{2}9\d{8}$/.test(digits)) return undefined;
  return `55${digits}`;
}
