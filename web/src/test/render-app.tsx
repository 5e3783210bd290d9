import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { Profile } from '../api/types';
import { AuthContext, type AuthContextValue } from '../auth/context';

/** A signed-in user with these permission keys. */
export function signedIn(modules: string[], profile: Partial<Profile> = {}): AuthContextValue {
  const user = { id: 'u1', name: 'Ann', module: { access_all_modules: false, modules }, ...profile } as unknown as Profile;
  return {
    status: 'authenticated',
    user,
    login: async () => {},
    register: async () => {},
    logout: async () => {},
    switchLanguage: async () => {},
    updateUser: () => {},
  };
}

/** Renders routes at `url` for a signed-in user, with a fresh query cache (no retries); returns the router. */
export function renderRoutes(routes: RouteObject[], url: string, auth: AuthContextValue = signedIn([])) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AuthContext.Provider value={auth}>
      <QueryClientProvider client={queries}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AuthContext.Provider>,
  );
  return router;
}
