import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import { queryClient } from '../../api/queryClient';
import { clearSession, getToken, setToken } from '../../api/session';
import { deviceToken, saveDeviceToken } from './deviceTokens';
import { PROFILE_KEY, type Profile } from './profile';

export interface SignInInput {
  username: string;
  password: string;
  remember_me: boolean;
}

/** Signs in; stores the token and primes the profile cache. Throws ApiError (not notified). */
export async function signIn(input: SignInInput): Promise<Profile> {
  const res = await api<{ token?: string; user?: Profile; device_token?: string }>('/auth/sign-in', {
    method: 'POST',
    body: { ...input, device_token: deviceToken(input.username) },
    anonymous: true,
    silent: true,
  });
  if (!res?.token || !res.user) {
    clearSession();
    throw new ApiError(200, 'NO_TOKEN', 'The server did not return a token');
  }
  if (res.device_token) saveDeviceToken(input.username, res.device_token);
  queryClient.clear();
  setToken(res.token);
  queryClient.setQueryData(PROFILE_KEY, res.user);
  return res.user;
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
