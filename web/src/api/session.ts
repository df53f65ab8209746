/** Local-storage session: key `panel.session` holds JSON `{ t: token }`. */
const SESSION_KEY = 'panel.session';
/** Keys that survive sign-out (the language choice and device tokens are not part of the session). */
const KEEP_ON_CLEAR = new Set(['panel.lang', 'panel.devices']);

export function getToken(): string | null {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { t?: unknown };
    return typeof parsed.t === 'string' && parsed.t.length > 0 ? parsed.t : null;
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(SESSION_KEY, JSON.stringify({ t: token }));
}

export function isSignedIn(): boolean {
  return getToken() !== null;
}

/** Clears the whole local storage except the language choice. */
export function clearSession(): void {
  const keys: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k && !KEEP_ON_CLEAR.has(k)) keys.push(k);
  }
  for (const k of keys) localStorage.removeItem(k);
}
