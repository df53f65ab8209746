import { describe, expect, test } from 'vitest';
import { byTestId, fillSignIn, signInUi, signOutUi, storageItem, tr, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

const DEVICES_KEY = 'panel.devices';

describe('sign-in throttle: a browser that signed in before keeps signing in', () => {
  // A tiny per-IP limit: the browser and the "attacker" below share 127.0.0.1.
  const s = useE2eSuite({ env: { LOGIN_IP_MAX_FAILURES: '3' } });

  test('the device token survives sign-out and lets this browser in while its IP is throttled; a new browser waits', async () => {
    const known = await s.page();
    await signInUi(known, s.server.adminUsername, s.server.adminPassword);
    const devices = JSON.parse((await storageItem(known, DEVICES_KEY)) ?? '{}') as Record<string, string>;
    expect(devices[s.server.adminUsername.toLowerCase()]).toEqual(expect.any(String));
    await signOutUi(known);
    expect(await storageItem(known, DEVICES_KEY)).not.toBeNull();

    // Someone on the same address sprays passwords at other usernames until the IP is throttled.
    const spray = async (username: string) => {
      const res = await fetch(`${s.server.baseUrl}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: 'guess-guess-1' }),
      });
      await res.arrayBuffer();
      return res.status;
    };
    const codes: number[] = [];
    for (const name of ['ana', 'bruno', 'carla', 'davi']) codes.push(await spray(name));
    expect(codes).toEqual([401, 401, 401, 429]);

    // A browser that never signed in here is told to wait, even with the right password.
    const fresh = await s.page();
    await fresh.goto('/auth/sign-in');
    await fillSignIn(fresh, s.server.adminUsername, s.server.adminPassword);
    const error = byTestId(fresh, 'signin-error');
    await error.waitFor();
    expect(await visibleText(error)).toBe(tr('pt-BR', 'errors.RATE_LIMITED'));

    // The known browser sends its device token and gets in.
    await fillSignIn(known, s.server.adminUsername, s.server.adminPassword);
    await waitForPath(known, '/');
    await byTestId(known, 'user-menu').waitFor();
  });
});
