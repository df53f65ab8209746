/**
 * The sign-in page is a light page of its own (public.html): the panel leaves for it with a full
 * page load, saying where to come back to (`?next=`), and the page goes there once signed in.
 */
export const SIGN_IN_PATH = '/auth/sign-in';

/** The sign-in page's address; `next` (a path of this site) is where to go once signed in. */
export function signInUrl(next?: string): string {
  const back = next === undefined ? null : safeNext(next);
  return back && back !== '/' ? `${SIGN_IN_PATH}?next=${encodeURIComponent(back)}` : SIGN_IN_PATH;
}

/**
 * A `next` worth following: a path of this site (never another origin, `//host` or `/\host`), and
 * not a light page (sign-in again, the customer's or a trial page); anything else is '/'.
 */
export function safeNext(raw: string | null | undefined): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  try {
    const url = new URL(raw, 'http://panel.invalid');
    // normalising may make `//host` of a path that did not start so (`/.//host`, `/a/..//host`)
    if (url.origin !== 'http://panel.invalid' || /^\/[/\\]/.test(url.pathname) || /^\/(?:auth\/|minha-conta|teste\/)/.test(url.pathname)) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

/** Leaves the panel for the sign-in page (a full load: the panel's code stays behind). */
export function goToSignIn(next?: string): void {
  window.location.assign(signInUrl(next));
}
