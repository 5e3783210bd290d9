import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import openapi from '../../../openapi.json?raw';
import i18next from '../../locales/i18n';
import type { Profile } from '../../api/types';
import { AuthContext, type AuthContextValue } from '../../auth/context';
import { fakeApi } from '../../test/fake-api';
import ClientManagementPage from './pages/client-management-page';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../components/snackbar', () => ({ toast: toasts }));
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
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

describe('clients screen', () => {
  it('shows each client’s e-mail and phone as links, a dash where there is none', async () => {
    fakeApi({ 'GET /api/clients/': () => list([{ ...client, email: 'anna@acme.test', phone: '+39 055 123 4567' }, { ...client, id: 'c2', name: 'Bare Bar', contact_name: '' }]) });
    renderScreen(<ClientManagementPage />, ['settings.clients.list']);
    const mail = await screen.findByRole('link', { name: 'anna@acme.test' });
    expect(mail.getAttribute('href')).toBe('mailto:anna@acme.test');
    expect(screen.getByRole('link', { name: '+39 055 123 4567' }).getAttribute('href')).toBe('tel:+390551234567');
    const bare = screen.getByText('Bare Bar').closest('[role="row"]') as HTMLElement;
    expect(within(bare).getAllByText('—')).toHaveLength(2);
  });

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

describe('client form against the server', () => {
  const routes = { 'GET /api/clients/': () => list([client]) };
  const permissions = ['settings.clients.list', 'settings.clients.edit'];
  /** The limit the server declares, read from the document itself. */
  const nameMax: number = JSON.parse(openapi).components.schemas.ClientForm.properties.name.maxLength;

  async function openEdit() {
    renderScreen(<ClientManagementPage />, permissions);
    await screen.findByText('Acme Vending');
    fireEvent.click(screen.getByRole('button', { name: 'Edit: Acme Vending' }));
    return screen.findByTestId('client-dialog');
  }

  const input = (dialog: HTMLElement, name: string) => dialog.querySelector(`input[name=${name}]`) as HTMLInputElement;
  const helperOf = (field: HTMLInputElement) => field.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent;

  it('puts a field error from the server on its field, by the server name or its alias', async () => {
    const api = fakeApi({
      ...routes,
      'PUT /api/clients/c1/': () => ({
        status: 400,
        body: { message: 'The given data was invalid', errors: { name: ['A client with this name exists'], commission_bps: ['Too high'] } },
      }),
    });
    const dialog = await openEdit();
    fireEvent.click(within(dialog).getByTestId('client-submit'));
    await waitFor(() => expect(helperOf(input(dialog, 'name'))).toBe('A client with this name exists'));
    expect(helperOf(input(dialog, 'commission'))).toBe('Too high');
    expect(input(dialog, 'name').getAttribute('aria-invalid')).toBe('true');
    // Every message found its field: no form-level message besides them.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(api.calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
    expect(toasts.error).toHaveBeenCalledWith('Client update failed');
    // Changing the field clears the server's message.
    fireEvent.change(input(dialog, 'name'), { target: { value: 'Acme Two' } });
    await waitFor(() => expect(helperOf(input(dialog, 'name'))).toBeUndefined());
  });

  it('shows a failure no field takes as the form message, and a stale version as such', async () => {
    let reply = { status: 500, body: { message: 'Database unavailable', errors: {} } };
    fakeApi({ ...routes, 'PUT /api/clients/c1/': () => reply });
    const dialog = await openEdit();
    fireEvent.click(within(dialog).getByTestId('client-submit'));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Database unavailable');
    reply = { status: 409, body: { message: 'Version conflict', errors: {} } };
    fireEvent.click(within(dialog).getByTestId('client-submit'));
    await within(dialog).findByText('Someone else changed this record. Reload it and apply your changes again.');
    expect(within(dialog).queryByText('Version conflict')).toBeNull();
  });

  it('refuses a name longer than the OpenAPI document allows, in the UI language', async () => {
    expect(nameMax).toBeGreaterThan(0);
    const api = fakeApi({ ...routes, 'PUT /api/clients/c1/': () => ({ status: 200, body: { message: 'ok', code: 'client_updated', data: client } }) });
    await i18next.changeLanguage('fr');
    renderScreen(<ClientManagementPage />, permissions);
    await screen.findByText('Acme Vending');
    fireEvent.click(screen.getByRole('button', { name: 'Modifier: Acme Vending' }));
    const dialog = await screen.findByTestId('client-dialog');
    fireEvent.change(input(dialog, 'name'), { target: { value: 'x'.repeat(nameMax + 1) } });
    fireEvent.click(within(dialog).getByTestId('client-submit'));
    await waitFor(() => expect(helperOf(input(dialog, 'name'))).toBe(`${nameMax} caractères au maximum`));
    expect(api.calls.some((call) => call.method === 'PUT')).toBe(false);
    // Exactly the limit is accepted and sent.
    fireEvent.change(input(dialog, 'name'), { target: { value: 'x'.repeat(nameMax) } });
    fireEvent.click(within(dialog).getByTestId('client-submit'));
    await waitFor(() => expect(api.calls.some((call) => call.method === 'PUT')).toBe(true));
    expect((api.calls.find((call) => call.method === 'PUT')?.body as { name: string }).name).toHaveLength(nameMax);
    await waitFor(() => expect(toasts.success).toHaveBeenCalled());
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
