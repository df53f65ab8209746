/** Whole days left until `expDate` (epoch seconds); 0 on the last day, negative once expired. */
export function daysLeft(expDate: number, nowSeconds = Date.now() / 1000): number {
  return Math.floor((expDate - nowSeconds) / 86_400);
}

/** Badge colour by days left (SPEC "Expiry"): >7 green, 4-7 purple, 1-3 yellow, 0 pink, expired red. */
export function expiryColor(expDate: number, nowSeconds = Date.now() / 1000): string {
  if (expDate <= nowSeconds) return 'red';
  const d = daysLeft(expDate, nowSeconds);
  if (d > 7) return 'green';
  if (d >= 4) return 'grape';
  if (d >= 1) return 'yellow';
  return 'pink';
}
