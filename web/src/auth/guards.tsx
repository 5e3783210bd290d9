import type { ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { LoadingScreen } from '../components/loading-screen';
import { paths } from '../routes/paths';
import { useAuth } from './context';

/** Only same-site paths are followed, so `returnTo` cannot send the user elsewhere. */
export function safeReturnTo(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return paths.dashboard.root;
  return value;
}

export function loginPathFor(returnTo: string): string {
  return `${paths.auth.login}?${new URLSearchParams({ returnTo }).toString()}`;
}

/** Protected routes: a signed-out visitor goes to the login screen with `returnTo`. */
export function AuthGuard({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'unauthenticated') {
    return <Navigate to={loginPathFor(`${location.pathname}${location.search}`)} replace />;
  }
  return <>{children}</>;
}

/** Login and register: a signed-in visitor goes on to `returnTo` or the dashboard. */
export function GuestGuard({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const [searchParams] = useSearchParams();
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'authenticated') return <Navigate to={safeReturnTo(searchParams.get('returnTo'))} replace />;
  return <>{children}</>;
}
