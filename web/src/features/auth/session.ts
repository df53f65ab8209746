import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import { clearSession, getToken } from '../../api/session';
import { goToSignIn } from '../../lib/signInUrl';

// Signing in is the light sign-in page's (src/public, public.html): it stores the token this panel reads.

/** Signs out (the local session ends even when the server cannot be told), then loads the sign-in page. */
export function useSignOut() {
  return useMutation({
    mutationFn: signOut,
    // a full load: the panel's code, caches and state stay behind
    onSuccess: () => goToSignIn(),
  });
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
