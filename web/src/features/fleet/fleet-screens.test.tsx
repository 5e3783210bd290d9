import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import type { Profile } from '../../api/types';
import { AuthContext, type AuthContextValue } from '../../auth/context';
import { fakeApi } from '../../test/fake-api';
import ClientManagementPage from './pages/client-management-page';
import LocationManagementPage from './pages/location-management-page';

const client = {
  id: 'c1', name: 'Acme Vending', contact_name: 'Anna', email: '', phone: '', commission_bps: 250,
  createdAt: '2026-01-02T10:00:00Z', updated_at: '2026-01-02T10:00:00Z', version: 1,
};
const location = {
  id: 'l1', name: 'Central Station', address: 'Piazza 1', type: 'Station', region: 'Tuscany', client_id: 'c1',
  client_name: 'Acme Vending', refiller_id: null, refiller_name: null, latitude: null, longitude: null,
  time_zone: 'Europe/Rome', createdAt: '2026-01-02T10:00:00Z', updated_at: '2026-01-02T10:00:00Z', version: 1,
};
const list = (data: unknown[]) => ({ status: 200, body: { data, pagination: { count: data.length } } });
const options = (data: unknown[]) => ({ status: 200, body: { data } });

function renderScreen(element: React.ReactNode, modules: string[]) {
  const user = { id: 'u1', name: 'Ann', module: { access_all_modules: false, modules } } as unknown as Profile;
  const auth: AuthContextValue = {
    status: 'authenticated',
    user,
    login: async () => {},
    register: async () => {},
    logout: async () => {},
    switchLanguage: async () => {},
    updateUser: () => {},
  };
  const router = createMemoryRouter([{ path: '/', element, handle: { title: 'nav.clientManagement' } }]);
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AuthContext.Provider value={auth}>
      <QueryClientProvider client={queries}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AuthContext.Provider>,
  );
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('clients screen', () => {
  it('hides new, edit and delete without the permissions', async () => {
    fakeApi({ 'GET /api/clients/': () => list([client]) });
    renderScreen(<ClientManagementPage />, ['settings.clients.list']);
    await screen.findByText('Acme Vending');
    expect(screen.queryByTestId('new-client')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit: Acme Vending' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete: Acme Vending' })).toBeNull();
  });

  it('shows them with the permissions, and checks the commission in the UI language', async () => {
    const api = fakeApi({ 'GET /api/clients/': () => list([client]) });
    await i18next.changeLanguage('it');
    renderScreen(<ClientManagementPage />, ['settings.clients.list', 'settings.clients.new', 'settings.clients.edit', 'settings.clients.delete']);
    await screen.findByText('Acme Vending');
    expect(screen.getByRole('button', { name: 'Elimina: Acme Vending' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Modifica: Acme Vending' }));
    const dialog = await screen.findByTestId('client-dialog');
    const commission = within(dialog).getByRole('textbox', { name: 'Commissione (%)' }) as HTMLInputElement;
    expect(commission.value).toBe('2.5');
    fireEvent.change(commission, { target: { value: '3,125' } });
    fireEvent.click(within(dialog).getByTestId('client-submit'));
    await within(dialog).findByText('Inserisci una percentuale con al massimo 2 decimali, ad es. 2,5');
    expect(api.calls.some((call) => call.method === 'PUT')).toBe(false);
  });
});

describe('locations screen', () => {
  const routes = {
    'GET /api/locations/': () => list([location]),
    'GET /api/filters/clients/': () => options([{ id: 'c1', name: 'Acme Vending' }]),
    'GET /api/filters/locations/types/': () => options(['Station']),
    'GET /api/filters/regions/': () => options(['Tuscany']),
  };

  it('hides new, export, edit, delete and selection without the permissions', async () => {
    fakeApi(routes);
    renderScreen(<LocationManagementPage />, ['settings.locations.list']);
    await screen.findByText('Central Station');
    expect(screen.queryByTestId('new-location')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit: Central Station' })).toBeNull();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });

  it('sends the client filter to the server', async () => {
    const api = fakeApi(routes);
    renderScreen(<LocationManagementPage />, ['settings.locations.list', 'settings.locations.export', 'settings.locations.new']);
    await screen.findByText('Central Station');
    expect(screen.getByTestId('new-location')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' })).toBeTruthy();
    fireEvent.mouseDown(screen.getByTestId('locations-client-filter'));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Vending' }));
    await waitFor(() =>
      expect(api.calls.some((call) => call.path === '/api/locations/' && call.search.includes('client=c1'))).toBe(true),
    );
  });
});
