import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../api/types';
import { AuthContext, type AuthContextValue } from './context';
import { AuthGuard, GuestGuard, safeReturnTo } from './guards';
import type { SessionStatus } from './auth-state';

function Where() {
  const location = useLocation();
  return <span data-testid="where">{`${location.pathname}${location.search}`}</span>;
}

function renderAt(path: string, status: SessionStatus) {
  const value: AuthContextValue = {
    status,
    user: status === 'authenticated' ? ({ id: 'u1' } as Profile) : null,
    login: async () => {},
    register: async () => {},
    logout: async () => {},
    switchLanguage: async () => {},
    updateUser: () => {},
  };
  const router = createMemoryRouter(
    [
      { path: '/auth/jwt/login', element: <GuestGuard><Where /></GuestGuard> },
      { path: '/auth/jwt/register', element: <GuestGuard><Where /></GuestGuard> },
      { path: '*', element: <AuthGuard><Where /></AuthGuard> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AuthContext.Provider value={value}>
      <RouterProvider router={router} />
    </AuthContext.Provider>,
  );
}

describe('route guards', () => {
  it('send a signed-out visitor of a protected path to login with returnTo', async () => {
    renderAt('/settings/user-management?tab=roles', 'unauthenticated');
    expect((await screen.findByTestId('where')).textContent).toBe(
      '/auth/jwt/login?returnTo=%2Fsettings%2Fuser-management%3Ftab%3Droles',
    );
  });

  it('let a signed-in user through', async () => {
    renderAt('/report/encashment', 'authenticated');
    expect((await screen.findByTestId('where')).textContent).toBe('/report/encashment');
  });

  it('show a loading screen while the session is being checked', () => {
    renderAt('/dashboard', 'loading');
    expect(screen.queryByTestId('where')).toBeNull();
    expect(screen.getByRole('progressbar', { busy: true })).toBeTruthy();
  });

  it('send a signed-in visitor of login to returnTo, or the dashboard', async () => {
    renderAt('/auth/jwt/login?returnTo=%2Freport%2Fencashment', 'authenticated');
    expect((await screen.findByTestId('where')).textContent).toBe('/report/encashment');
  });

  it('send a signed-in visitor of register without returnTo to the dashboard', async () => {
    renderAt('/auth/jwt/register', 'authenticated');
    expect((await screen.findByTestId('where')).textContent).toBe('/dashboard');
  });

  it('never follow a returnTo that leaves the site', () => {
    expect(safeReturnTo('https://evil.example')).toBe('/dashboard');
    expect(safeReturnTo('//evil.example')).toBe('/dashboard');
    expect(safeReturnTo('/\\evil.example')).toBe('/dashboard');
    expect(safeReturnTo(null)).toBe('/dashboard');
    expect(safeReturnTo('/planning/planned-routes')).toBe('/planning/planned-routes');
  });
});
