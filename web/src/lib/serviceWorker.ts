/**
 * The service worker precaches every file of the app (about 190) for the next visits. It is
 * registered once the page has loaded and the browser is idle, so that download does not compete
 * with the first load of the page the user opened.
 */
export function registerServiceWorkerWhenIdle(): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  // Safari has no requestIdleCallback: a short wait instead.
  const whenIdle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(register, { timeout: 5_000 }) : setTimeout(register, 2_000));
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
