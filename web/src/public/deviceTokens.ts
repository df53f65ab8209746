/**
 * Device tokens per username (localStorage `panel.devices`, kept on sign-out): the server hands one
 * out on each successful sign-in, and sending it back lets this browser sign in even while the
 * account or the network address is being throttled for someone else's failed guesses.
 */
export const DEVICES_KEY = 'panel.devices';

function readAll(): Record<string, string> {
  try {
    const parsed = JSON.parse(localStorage.getItem(DEVICES_KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function deviceToken(username: string): string | undefined {
  const token = readAll()[username.toLowerCase()];
  return typeof token === 'string' && token ? token : undefined;
}

export function saveDeviceToken(username: string, token: string): void {
  try {
    localStorage.setItem(DEVICES_KEY, JSON.stringify({ ...readAll(), [username.toLowerCase()]: token }));
  } catch {
    // Storage full or disabled: sign-in works without it.
  }
}
