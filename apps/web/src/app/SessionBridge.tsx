import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { onSessionEnd } from '../api/session';
import { loginRedirectPath } from './loginRedirect';

/** When the session ends (logout, 401, maintenance): clear cached data, go to /login?redirect=…. */
export function SessionBridge() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSessionEnd(() => {
        queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'content' });
        navigate(loginRedirectPath(location.pathname + location.search), { replace: true });
      }),
    [navigate, location.pathname, location.search, queryClient],
  );
  return null;
}
