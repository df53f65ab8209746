import dayjs from 'dayjs';

/** Unix seconds as DD-MM-YYYY HH:mm (the reseller list's last login); empty text for null/0. */
export function formatEpoch(seconds: number | null | undefined): string {
  return seconds ? dayjs.unix(seconds).format('DD-MM-YYYY HH:mm') : '';
}
