import { useEffect, useState } from 'react';

/** Current time in epoch seconds, refreshed every minute (expiry badges stay right on an open page). */
export function useNowSec(): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const id = window.setInterval(() => setNow(Math.floor(Date.now() / 1000)), 60_000);
    return () => window.clearInterval(id);
  }, []);
  return now;
}
