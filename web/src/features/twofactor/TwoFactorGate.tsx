import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useProfile } from '../../api/profile';

export const SECURITY_PATH = '/profile/security';

/** REQUIRE_ADMIN_2FA: an admin without 2FA is kept on the security page until enrolled (the API refuses the rest). */
export function TwoFactorGate() {
  const { data } = useProfile();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const navigate = useNavigate();
  const mustEnrol = data?.two_factor_required === true;
  useEffect(() => {
    if (mustEnrol && pathname !== SECURITY_PATH) void navigate({ to: SECURITY_PATH });
  }, [mustEnrol, pathname, navigate]);
  return null;
}
