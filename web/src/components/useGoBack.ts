import { useCanGoBack, useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';

/** History back when there is an in-app previous page, otherwise `fallback` (used by Back/Cancel buttons). */
export function useGoBack(fallback: string = '/') {
  const router = useRouter();
  const canGoBack = useCanGoBack();
  const navigate = useNavigate();
  return useCallback(() => {
    if (canGoBack) router.history.back();
    else void navigate({ to: fallback as '/' });
  }, [canGoBack, router, navigate, fallback]);
}
