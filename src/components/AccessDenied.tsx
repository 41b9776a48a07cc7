/**
 * What the layout renders for a route the visitor may not open: a logged-out visitor
 * goes to the login page (with `redirect` back here); a logged-in one sees 403.
 */
import { Navigate, useAccess, useLocation } from '@umijs/max';
import ExceptionResult from './ExceptionResult';
import { loginPath } from './redirect';

export function deniedTarget(
  isLoggedIn: boolean,
  location: { pathname: string; search?: string },
): { redirectTo: string } | { forbidden: true } {
  return isLoggedIn ? { forbidden: true } : { redirectTo: loginPath(location) };
}

export default function AccessDenied() {
  const { isLoggedIn } = useAccess();
  const location = useLocation();
  const target = deniedTarget(isLoggedIn, location);
  if ('redirectTo' in target) return <Navigate to={target.redirectTo} replace />;
  return <ExceptionResult status={403} />;
}
