import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import { queryClient } from '../../api/queryClient';
import { clearSession, getToken, setToken } from '../../api/session';
import type { Profile, SignedIn, SignInBody, TwoFactorChallenge } from '../../api/types';
import { deviceToken, saveDeviceToken } from './deviceTokens';
import { profileKeys, profileQuery } from '../../api/profile';

export type SignInInput = Required<Omit<SignInBody, 'device_token'>>;
/** The full profile, or the sign-in answer's user when the profile could not be loaded. */
export type SignedInProfile = SignedIn['user'] & Partial<Profile>;

/** What the page does with an answer (awaited: the button stays busy until it is done) or an error. */
type Callbacks<V, T> = Pick<UseMutationOptions<T, unknown, V>, 'onSuccess' | 'onError'>;

/**
 * Signs in; stores the token and primes the profile cache. Answers the challenge instead when the
 * account needs a second step (useCompleteSignIn). Errors are ApiErrors (not notified).
 */
export function useSignIn(callbacks: Callbacks<SignInInput, SignedInProfile | TwoFactorChallenge>) {
  return useMutation({ mutationFn: signIn, ...callbacks });
}

/** The second step: a 6-digit code from the app, or a recovery code. Errors are ApiErrors (not notified). */
export function useCompleteSignIn(callbacks: Callbacks<{ username: string; challenge: string; code: string }, SignedInProfile>) {
  return useMutation({ mutationFn: completeSignIn, ...callbacks });
}

/** Signs out (the local session ends even when the server cannot be told), leaves the signed-in pages, then drops the caches. */
export function useSignOut() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signOut,
    // Cleared after leaving, so mounted queries do not refetch.
    onSuccess: async () => {
      await navigate({ to: '/auth/sign-in' });
      queryClient.clear();
    },
  });
}

async function signIn(input: SignInInput): Promise<SignedInProfile | TwoFactorChallenge> {
  const res = await api.POST('/api/auth/sign-in', {
    body: { ...input, device_token: deviceToken(input.username) },
    anonymous: true,
    silent: true,
  });
  if (res && 'two_factor_required' in res && res.challenge) return res;
  return startSession(res as SignedIn);
}

async function completeSignIn({ username, challenge, code }: { username: string; challenge: string; code: string }): Promise<SignedInProfile> {
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
  queryClient.setQueryData(profileKeys.all(), res.user);
  return queryClient.fetchQuery({ ...profileQuery, staleTime: 0 }).catch(() => res.user);
}

/** Revokes the token on the server (best effort) and always clears local storage. */
async function signOut(): Promise<void> {
  try {
    if (getToken()) await api.DELETE('/api/auth/sign-out', { silent: true, noAuthRedirect: true });
  } catch {
    // The local session ends anyway.
  } finally {
    clearSession();
  }
}
