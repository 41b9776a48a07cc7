/**
 * What the layout renders for a route the visitor may not open: a logged-out visitor
 * goes to the login page (with `redirect` back here); a logged-in one sees 403 — and an
 * administrator kept out of the student lookup only for want of its role can take it.
 */
import { Navigate, useAccess, useLocation } from '@umijs/max';
import ExceptionResult from './ExceptionResult';
import GrantSelfNjit from './GrantSelfNjit';
import { loginPath } from './redirect';

export function deniedTarget(
  isLoggedIn: boolean,
  location: { pathname: string; search?: string },
): { redirectTo: string } | { forbidden: true } {
  return isLoggedIn ? { forbidden: true } : { redirectTo: loginPath(location) };
}

export default function AccessDenied() {
  const { isLoggedIn, isAdmin, isNjit } = useAccess();
  const location = useLocation();
  const target = deniedTarget(isLoggedIn, location);
  if ('redirectTo' in target) return <Navigate to={target.redirectTo} replace />;
  if (isAdmin && !isNjit && location.pathname.startsWith('/njit')) {
    return (
      <ExceptionResult
        status={403}
        subTitle="NJIT 学生信息需要 njit 角色。你是管理员，可以为自己开通（会记入管理员审计日志）。"
        action={<GrantSelfNjit />}
      />
    );
  }
  return <ExceptionResult status={403} />;
}
