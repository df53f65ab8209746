import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import { queryClient } from '../../api/queryClient';
import { clearSession, getToken, setToken } from '../../api/session';
import { deviceToken, saveDeviceToken } from './deviceTokens';
import { PROFILE_KEY, type Profile, profileQuery } from './profile';

export interface SignInInput {
  username: string;
  password: string;
  remember_me: boolean;
}

interface SignedIn {
  token?: string;
  user?: Profile;
  device_token?: string;
}

/** The password was right and the account has two-factor sign-in: a code must follow. */
export interface TwoFactorChallenge {
  two_factor_required: true;
  challenge: string;
  expires_in: number;
}

/**
 * Signs in; stores the token and primes the profile cache. Answers the challenge instead when the
 * account needs a second step (see completeSignIn). Throws ApiError (not notified).
 */
export async function signIn(input: SignInInput): Promise<Profile | TwoFactorChallenge> {
  const res = await api<SignedIn | TwoFactorChallenge>('/auth/sign-in', {
    method: 'POST',
    body: { ...input, device_token: deviceToken(input.username) },
    anonymous: true,
    silent: true,
  });
  if (res && 'two_factor_required' in res && res.challenge) return res;
  return startSession(res as SignedIn);
}

/** The second step: a 6-digit code from the app, or a recovery code. Throws ApiError (not notified). */
export async function completeSignIn(username: string, challenge: string, code: string): Promise<Profile> {
  const body = { challenge, code, device_token: deviceToken(username) };
  const res = await api<SignedIn>('/auth/sign-in/2fa', { method: 'POST', body, anonymous: true, silent: true });
  return startSession(res);
}

/** Stores the token, then loads the full profile (it says whether an admin must enrol in 2FA first). */
async function startSession(res: SignedIn | undefined): Promise<Profile> {
  if (!res?.token || !res.user) {
    clearSession();
    throw new ApiError(200, 'NO_TOKEN', 'The server did not return a token');
  }
  queryClient.clear();
  setToken(res.token);
  if (res.device_token) saveDeviceToken(res.user.username, res.device_token);
  queryClient.setQueryData(PROFILE_KEY, res.user);
  return queryClient.fetchQuery({ ...profileQuery, staleTime: 0 }).catch(() => res.user as Profile);
}

/**
 * Revokes the token on the server (best effort) and always clears local storage.
 * Call `queryClient.clear()` after leaving the signed-in pages (see TopBar) so mounted
 * queries do not refetch.
 */
export async function signOut(): Promise<void> {
  try {
    if (getToken()) await api('/auth/sign-out', { method: 'DELETE', silent: true, noAuthRedirect: true });
  } catch {
    // The local session ends anyway.
  } finally {
    clearSession();
  }
}
