import { clearSession, getToken, setToken } from '../api/session';
import type { Profile, SignedIn, TwoFactorChallenge } from '../api/types';
import { call, HttpError } from './api';
import { deviceToken, saveDeviceToken } from './deviceTokens';

export { getToken };

/** Where to go once signed in: an admin who must enrol in 2FA first goes to the Security page. */
export interface Entered {
  two_factor_required?: boolean;
}

/** POST /api/auth/sign-in (with this browser's device token): a session, or the 2FA challenge. */
export async function signIn(input: { username: string; password: string; remember_me: boolean }): Promise<Entered | TwoFactorChallenge> {
  const res = await call<SignedIn | TwoFactorChallenge>('POST', '/api/auth/sign-in', { body: { ...input, device_token: deviceToken(input.username) } });
  if (res && 'two_factor_required' in res && res.challenge) return res;
  return startSession(res as SignedIn);
}

/** POST /api/auth/sign-in/2fa: the 6-digit code of the app, or a recovery code. */
export async function completeSignIn({ username, challenge, code }: { username: string; challenge: string; code: string }): Promise<Entered> {
  const body = { challenge, code, device_token: deviceToken(username) };
  return startSession(await call<SignedIn>('POST', '/api/auth/sign-in/2fa', { body }));
}

/** Stores the token (localStorage `panel.session`, read by the panel) and the device token, then reads the profile. */
async function startSession(res: SignedIn | undefined): Promise<Entered> {
  if (!res?.token || !res.user) {
    clearSession();
    throw new HttpError(200, 'NO_TOKEN', 'The server did not return a token');
  }
  setToken(res.token);
  if (res.device_token) saveDeviceToken(res.user.username, res.device_token);
  return call<Profile>('GET', '/api/profile', { bearer: res.token }).catch(() => ({}));
}
