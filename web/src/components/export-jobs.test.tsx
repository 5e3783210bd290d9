import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { GridColDef } from '@mui/x-data-grid';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createQueryClient } from '../app/query-client';
import type { Job } from '../api/types';
import { exportUsers } from '../features/users/api/users';
import i18next from '../locales/i18n';
import { fakeApi, type Call } from '../test/fake-api';
import { clearExportJobs, ExportJobs } from './export-jobs';
import { replyMessage } from './server-list/reply-message';
import { ServerList, type ListQuery } from './server-list/server-list';
import { useListState } from './server-list/use-list-state';
import { SnackbarProvider } from './snackbar';

interface Row {
  id: string;
  name: string;
}

const columns: GridColDef<Row>[] = [{ field: 'name', headerName: 'Name', minWidth: 120 }];
const query: ListQuery<Row> = {
  data: { data: [{ id: 'a', name: 'Alpha' }], pagination: { count: 1, page: 1, page_size: 25 } },
  isFetching: false,
  isError: false,
  refetch: () => undefined,
};

function UsersList() {
  const list = useListState();
  return (
    <ServerList
      name="users"
      list={list}
      query={query}
      columns={columns}
      noRowsLabel="No users"
      rowLabel={(row) => row.name}
      onExport={(format) => exportUsers(format, { search: 'ann', ordering: '', role: '', status: 'active' })}
    />
  );
}

function renderApp() {
  const router = createMemoryRouter([{ path: '/', element: <UsersList /> }]);
  render(
    <SnackbarProvider>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
        <ExportJobs />
      </QueryClientProvider>
    </SnackbarProvider>,
  );
}

async function exportAs(label: string) {
  fireEvent.click(await screen.findByTestId('users-export'));
  fireEvent.click(await screen.findByRole('menuitem', { name: label }));
}

function job(overrides: Partial<Job>): Job {
  return {
    id: 'job-1',
    kind: 'export',
    status: 'queued',
    progress: 0,
    file_name: 'users.xlsx',
    total: 12345,
    download_url: null,
    error: null,
    created_at: '2026-01-01T10:00:00Z',
    updated_at: '2026-01-01T10:00:00Z',
    ...overrides,
  };
}

const queued = (data: Job) => () => ({ status: 202, body: { message: 'Export queued', code: 'export_queued', data } });

/** Replies to the job's polls one after the other (the last one repeats). */
function polls(...replies: Job[]) {
  let index = 0;
  return () => {
    const data = replies[Math.min(index, replies.length - 1)];
    index += 1;
    return { status: 200, body: { data } };
  };
}

let clicked: { href: string; download: string }[];

beforeEach(() => {
  clicked = [];
  // The downloads: record the link the app clicks instead of navigating.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download });
  });
});

afterEach(async () => {
  act(() => clearExportJobs());
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('exports queued as background jobs', () => {
  it('a 202 answer starts polling, shows the progress, and downloads the link when done', async () => {
    const { calls } = fakeApi({
      'GET /api/users/export/': queued(job({})),
      'GET /api/jobs/job-1/': polls(
        job({ status: 'running', progress: 40 }),
        job({ status: 'done', progress: 100, download_url: '/files/exports/job-1?sig=abc' }),
      ),
    });
    renderApp();
    await exportAs('Export Excel');

    const exportCall = calls.find((call: Call) => call.path === '/api/users/export/');
    expect(exportCall?.search).toContain('format=xlsx');
    expect(exportCall?.search).toContain('search=ann');

    const notice = await screen.findByTestId('export-job');
    await waitFor(() => expect(notice.textContent).toContain('Preparing users.xlsx… 40 %'));
    expect(notice.textContent).toContain('12,345 rows');
    expect(screen.getByRole('progressbar', { name: 'Progress of users.xlsx' }).getAttribute('aria-valuenow')).toBe('40');
    expect(clicked).toEqual([]);

    await screen.findByText('users.xlsx is ready', undefined, { timeout: 4000 });
    expect(clicked).toEqual([{ href: 'http://api.test/files/exports/job-1?sig=abc', download: 'users.xlsx' }]);
    // The link again, in case the browser blocked the download; the progress notice is gone.
    const link = screen.getByTestId('export-job-link');
    expect(link.getAttribute('href')).toBe('http://api.test/files/exports/job-1?sig=abc');
    expect(link.getAttribute('download')).toBe('users.xlsx');
    await waitFor(() => expect(screen.queryByTestId('export-job')).toBeNull());

    // Polling stopped.
    const polled = calls.filter((call) => call.path === '/api/jobs/job-1/').length;
    expect(polled).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(calls.filter((call) => call.path === '/api/jobs/job-1/').length).toBe(polled);
  });

  it('a failed job shows its error', async () => {
    fakeApi({
      'GET /api/users/export/': queued(job({ file_name: 'users.csv', total: 2 })),
      'GET /api/jobs/job-1/': polls(job({ file_name: 'users.csv', total: 2, status: 'failed', progress: 10, error: 'Disk full' })),
    });
    renderApp();
    await exportAs('Export CSV');
    await screen.findByText('The export of users.csv failed: Disk full', undefined, { timeout: 4000 });
    expect(clicked).toEqual([]);
    await waitFor(() => expect(screen.queryByTestId('export-job')).toBeNull());
  });

  it('follows several jobs at once, in the user language', async () => {
    await i18next.changeLanguage('fr');
    let next = 0;
    const ids = ['job-a', 'job-b'];
    fakeApi({
      'GET /api/users/export/': () => {
        const id = ids[next++];
        return queued(job({ id, file_name: `${id}.csv`, total: 1 }))();
      },
      'GET /api/jobs/job-a/': polls(job({ id: 'job-a', file_name: 'job-a.csv', total: 1, status: 'running', progress: 50 })),
      'GET /api/jobs/job-b/': polls(job({ id: 'job-b', file_name: 'job-b.csv', total: 1, status: 'queued' })),
    });
    renderApp();
    await exportAs('Exporter en CSV');
    await screen.findByText('Préparation de job-a.csv… 0 %');
    await exportAs('Exporter en CSV');
    await screen.findByText('Préparation de job-a.csv… 50 %', undefined, { timeout: 3000 });
    const notices = await screen.findAllByTestId('export-job');
    expect(notices).toHaveLength(2);
    expect(notices[1].textContent).toContain('Préparation de job-b.csv… 0 %');
    expect(notices[1].textContent).toContain('Export mis en file d’attente · 1 ligne');
  });

  it('a 200 answer still downloads the file directly', async () => {
    // jsdom has no blob URLs.
    const createObjectURL = vi.fn(() => 'blob:users');
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    onTestFinished(() => {
      Object.assign(URL, original);
    });
    const { calls } = fakeApi({
      'GET /api/users/export/': () => ({
        status: 200,
        body: 'name\nAnn',
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="users-2026.csv"' },
      }),
    });
    renderApp();
    await exportAs('Export CSV');
    await waitFor(() => expect(clicked).toEqual([{ href: 'blob:users', download: 'users-2026.csv' }]));
    expect(createObjectURL).toHaveBeenCalledOnce();
    expect(screen.queryByTestId('export-job')).toBeNull();
    expect(calls.some((call) => call.path.startsWith('/api/jobs/'))).toBe(false);
  });

  it("translates the server's export_queued reply", async () => {
    await i18next.changeLanguage('it');
    expect(replyMessage({ message: 'Export queued', code: 'export_queued', data: {} })).toBe('Esportazione in coda');
  });
});
