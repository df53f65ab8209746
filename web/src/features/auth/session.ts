import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import { queryClient } from '../../api/queryClient';
import { clearSession, getToken, setToken } from '../../api/session';
import type { Profile, SignedIn, SignInBody, TwoFactorChallenge } from '../../api/types';
import { deviceToken, saveDeviceToken } from './deviceTokens';
import { PROFILE_KEY, profileQuery } from '../../api/profile';

export type SignInInput = Required<Omit<SignInBody, 'device_token'>>;
/** The full profile, or the sign-in answer's user when the profile could not be loaded. */
export type SignedInProfile = SignedIn['user'] & Partial<Profile>;

/**
 * Signs in; stores the token and primes the profile cache. Answers the challenge instead when the
 * account needs a second step (see completeSignIn). Throws ApiError (not notified).
 */
export async function signIn(input: SignInInput): Promise<SignedInProfile | TwoFactorChallenge> {
  const res = await api.POST('/api/auth/sign-in', {
    body: { ...input, device_token: deviceToken(input.username) },
    anonymous: true,
    silent: true,
  });
  if (res && 'two_factor_required' in res && res.challenge) return res;
  return startSession(res as SignedIn);
}

/** The second step: a 6-digit code from the app, or a recovery code. Throws ApiError (not notified). */
export async function completeSignIn(username: string, challenge: string, code: string): Promise<SignedInProfile> {
  const body = { challenge, code, device_token: deviceToken(username) };
  return startSession(await api.POST('/api/auth/sign-in/2fa', { body, anonymous: true, silent: true }));
}

/** Stores the token, then loads the full profile (it says whether an admin must enrol in 2FA first). */
async function startSession(res: SignedIn | undefined): Promise<SignedInProfile> {
  if (!res?.token || !res.user) {
    clearSession();
    throw new ApiError(200, 'NO_TOKEN', 'The server did not return a token');
  }
  queryClient.clear();
  setToken(res.token);
  if (res.device_token) saveDeviceToken(res.user.username, res.device_token);
  queryClient.setQueryData(PROFILE_KEY, res.user);
  return queryClient.fetchQuery({ ...profileQuery, staleTime: 0 }).catch(() => res.user);
}

/**
 * Revokes the token on the server (best effort) and always clears local storage.
 * Call `queryClient.clear()` after leaving the signed-in pages (see TopBar) so mounted
 * queries do not refetch.
 */
export async function signOut(): Promise<void> {
  try {
    if (getToken()) await api.DELETE('/api/auth/sign-out', { silent: true, noAuthRedirect: true });
  } catch {
    // The local session ends anyway.
  } finally {
    clearSession();
  }
}
