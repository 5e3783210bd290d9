import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OperatorSettings } from '../../api/types';
import i18next from '../../locales/i18n';
import { fakeApi, type Call } from '../../test/fake-api';
import { renderRoutes, signedIn } from '../../test/render-app';
import { data, type Routes } from '../../test/report-api';
import DataPolicyPage from './pages/data-policy-page';
import { addDomains, isMailDomain, policySchema, toPolicyForm, valuesFromSettings } from './policy-logic';
import { problemsOf } from '../../components/form';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('../../components/snackbar', () => ({ toast: toasts }));

function settings(patch: Partial<OperatorSettings> = {}): OperatorSettings {
  return {
    time_zone: 'Europe/Rome',
    today: '2026-11-23',
    mail_domains: ['example.com'],
    min_task_interval_minutes: 15,
    editable: true,
    version: 3,
    updated_at: '2026-11-20T10:00:00Z',
    ...patch,
  };
}

function serve(routes: Routes = {}) {
  return fakeApi({ 'GET /api/settings/operator/': data(settings()), ...routes });
}

function renderPage() {
  const routes: RouteObject[] = [{ path: '/settings/data-policy', element: <DataPolicyPage />, handle: { title: 'nav.dataPolicy' } }];
  return renderRoutes(routes, '/settings/data-policy', signedIn(['settings.users.edit', 'settings.roles.edit']));
}

const calls = (api: { calls: Call[] }, method: string) => api.calls.filter((call) => call.method === method && call.path === '/api/settings/operator/');
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const chips = () => Array.from(screen.getByTestId('policy-form').querySelectorAll('.MuiChip-label')).map((chip) => chip.textContent);

const SLOW = { timeout: 20_000 };

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  await i18next.changeLanguage('en');
});

describe('the data policy’s rules', () => {
  it('takes domains and subdomain patterns as the server does', () => {
    for (const good of ['example.com', '*.example.com', 'Mail.Example.co.uk', ' a-b.io ']) expect(isMailDomain(good), good).toBe(true);
    for (const bad of ['example', '*.com', 'ex ample.com', '-x.com', 'x-.com', '*.', '', 'a..com', 'user@example.com', '**.example.com']) expect(isMailDomain(bad), bad).toBe(false);
  });

  it('adds what is typed in lower case, each once', () => {
    expect(addDomains(['example.com'], 'Example.COM, *.corp.example.org;b.io')).toEqual(['example.com', '*.corp.example.org', 'b.io']);
    expect(addDomains([], '  ')).toEqual([]);
  });

  it('checks the domains and the interval within the document’s limits, and sends the version read', () => {
    const schema = policySchema();
    expect(problemsOf(schema, { mail_domains: ['example.com'], min_task_interval_minutes: '15' })).toEqual({});
    expect(problemsOf(schema, { mail_domains: ['nope', 'x.com', 'bad domain'], min_task_interval_minutes: '0' })).toEqual({
      mail_domains: { key: 'dataPolicy.invalidDomains', values: { domains: 'nope, bad domain', count: 2 } },
      min_task_interval_minutes: { key: 'validation.range', values: { min: 1, max: 1440 } },
    });
    expect(problemsOf(schema, { mail_domains: [], min_task_interval_minutes: '1441' }).min_task_interval_minutes).toEqual({ key: 'validation.range', values: { min: 1, max: 1440 } });
    expect(problemsOf(schema, { mail_domains: [], min_task_interval_minutes: '' }).min_task_interval_minutes).toEqual({ key: 'validation.required' });
    expect(toPolicyForm({ ...valuesFromSettings(settings()), min_task_interval_minutes: ' 30 ' }, 3)).toEqual({
      mail_domains: ['example.com'],
      min_task_interval_minutes: 30,
      version: 3,
    });
  });
});

describe('data policy screen', SLOW, () => {
  it('sends the policy with the version read, and starts again from the saved one', async () => {
    const api = serve({
      'PUT /api/settings/operator/': (call) => ({
        status: 200,
        body: { message: 'Settings updated successfully', code: 'settings_updated', data: settings({ ...(call.body as object), version: 4, updated_at: '2026-11-23T09:00:00Z' }) },
      }),
    });
    renderPage();
    await waitFor(() => expect(input('policy-time-zone').value).toBe('Europe/Rome'));
    expect(screen.getByText('Today there: Nov 23, 2026')).toBeTruthy();
    expect(chips()).toEqual(['example.com']);
    fireEvent.change(input('policy-domains'), { target: { value: '*.Partner.org ' } });
    expect(chips()).toEqual(['example.com', '*.partner.org']);
    fireEvent.change(input('policy-min-interval'), { target: { value: '30' } });
    fireEvent.click(screen.getByTestId('policy-submit'));
    await waitFor(() => expect(calls(api, 'PUT')).toHaveLength(1));
    expect(calls(api, 'PUT')[0].body).toEqual({ mail_domains: ['example.com', '*.partner.org'], min_task_interval_minutes: 30, version: 3 });
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Data policy saved'));
    await waitFor(() => expect(screen.getByTestId('policy-updated').textContent).toBe('Last changed Nov 23, 2026, 9:00 AM'));
    expect(input('policy-min-interval').value).toBe('30');

    // The next save sends the new version.
    fireEvent.click(screen.getByTestId('policy-submit'));
    await waitFor(() => expect(calls(api, 'PUT')).toHaveLength(2));
    expect(calls(api, 'PUT')[1].body).toMatchObject({ version: 4 });
  });

  it('shows the server’s field errors on the fields, and refuses a bad domain before sending', async () => {
    const api = serve({
      'PUT /api/settings/operator/': () => ({
        status: 400,
        body: {
          message: 'Invalid input',
          errors: { mail_domains: ['At most 100 domains.'], min_task_interval_minutes: ['Give 1 to 1440 minutes.'] },
        },
      }),
    });
    renderPage();
    await screen.findByTestId('policy-submit');
    fireEvent.change(input('policy-domains'), { target: { value: 'intranet ' } });
    fireEvent.click(screen.getByTestId('policy-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('policy-domains-message').textContent).toBe('intranet is not a domain: write example.com, or *.example.com for its subdomains.'),
    );
    expect(calls(api, 'PUT')).toHaveLength(0);

    // Removing the bad chip; the server refuses the rest.
    fireEvent.click(screen.getByText('intranet').closest('.MuiChip-root')!.querySelector('.MuiChip-deleteIcon')!);
    fireEvent.click(screen.getByTestId('policy-submit'));
    await waitFor(() => expect(calls(api, 'PUT')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('policy-domains-message').textContent).toBe('At most 100 domains.'));
    expect(screen.getByText('Give 1 to 1440 minutes.')).toBeTruthy();
    expect(input('policy-min-interval').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('policy-form-error')).toBeNull();
    expect(toasts.error).toHaveBeenCalledWith('The data policy could not be saved.');
  });

  it('says when someone changed the policy since it was read', async () => {
    serve({ 'PUT /api/settings/operator/': () => ({ status: 409, body: { message: 'Version conflict', errors: {} } }) });
    renderPage();
    fireEvent.click(await screen.findByTestId('policy-submit'));
    await screen.findByText('Someone else changed this record. Reload it and apply your changes again.');
  });

  it('is read-only for whoever may not change it, and says "users only" for no domain', async () => {
    const api = serve({ 'GET /api/settings/operator/': data(settings({ editable: false, mail_domains: [], updated_at: null, version: 0 })) });
    renderPage();
    expect((await screen.findByTestId('policy-read-only')).textContent).toBe(
      'Only an administrator of users and roles with access to all machines changes this policy.',
    );
    expect(screen.queryByTestId('policy-submit')).toBeNull();
    expect(input('policy-domains').disabled).toBe(true);
    expect(input('policy-min-interval').disabled).toBe(true);
    expect(screen.getByTestId('policy-domains-message').textContent).toBe('None: scheduled reports go to users only.');
    expect(screen.queryByTestId('policy-updated')).toBeNull();
    expect(calls(api, 'PUT')).toHaveLength(0);
  });

  it('speaks Italian', async () => {
    await i18next.changeLanguage('it');
    serve();
    renderPage();
    await screen.findByTestId('policy-submit');
    expect(screen.getAllByText('Domini e-mail consentiti').length).toBeGreaterThan(0);
    expect(screen.getByTestId('policy-domains-message').textContent).toBe(
      'I report programmati vanno agli utenti e agli indirizzi di questi domini; *.example.com consente i suoi sottodomini.',
    );
  });
});
