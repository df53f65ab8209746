/** Days as the date pickers and the query strings write them. No dayjs here: route search validation runs in the entry chunk. */

/** A day as YYYY-MM-DD. */
export const DAY_FORMAT = 'YYYY-MM-DD';

/** A real YYYY-MM-DD day (not 2024-02-30). */
export function isDay(v: string | undefined): v is string {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const [y, m, d] = [Number(v.slice(0, 4)), Number(v.slice(5, 7)), Number(v.slice(8, 10))];
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d;
}
