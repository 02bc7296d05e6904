import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useSession } from '../shared/session';
import { guardRedirect } from './guard-rules';

/** The pure rules live in guard-rules.ts (unit-tested); this is the component that applies them. */
export { afterLoginRoute } from './guard-rules';

export const Guard = ({ children }: { children: ReactNode }) => {
  const { ready, user } = useSession();
  const location = useLocation();
  if (!ready) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }} role="status" aria-label="Loading">
        <CircularProgress aria-label="Loading" />
      </Box>
    );
  }
  // Follow the rules until they settle (e.g. a signed-in, unverified user on /login).
  let path = location.pathname.replace(/\/+$/, '') || '/';
  let search = location.search;
  let target: string | null = null;
  for (let i = 0; i < 4; i += 1) {
    const next = guardRedirect(path, search, user);
    if (!next || next === `${path}${search}` || next === path) break;
    target = next;
    const url = new URL(next, window.location.origin);
    path = url.pathname;
    search = url.search;
  }
  if (target) return <Navigate to={target} replace />;
  return <>{children}</>;
};
