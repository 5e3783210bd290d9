// What the report screens' tests share: the filter bar's option lists, a render of one report
// screen (with the snackbars and the export jobs) and the parameters of the calls it made.
import type { RouteObject } from 'react-router';
import type { ReactNode } from 'react';
import { ExportJobs } from '../components/export-jobs';
import { SnackbarProvider } from '../components/snackbar';
import type { I18nKey } from '../locales/keys';
import type { Call, fakeApi } from './fake-api';
import { renderRoutes, signedIn } from './render-app';

export type Routes = Parameters<typeof fakeApi>[0];

/** A 200 `{data}` reply. */
export const data = (value: unknown) => () => ({ status: 200, body: { data: value } });
/** A 200 list reply of these rows. */
export const page = (rows: unknown[], count = rows.length, pageSize = 25) => () => ({
  status: 200,
  body: { data: rows, pagination: { count, page: 1, page_size: pageSize } },
});

/** The filter bar's lists: today is 2026-11-23. */
export function filterRoutes(): Routes {
  return {
    'GET /api/filters/periods/': data([
      { key: 'current_month', date_from: '2026-11-01', date_to: '2026-11-23' },
      { key: 'previous_month', date_from: '2026-10-01', date_to: '2026-10-31' },
      { key: 'custom', date_from: null, date_to: null },
    ]),
    'GET /api/filters/clients/': data([{ id: 'c1', name: 'Campus' }]),
    'GET /api/filters/locations/': data([
      { id: 'l1', name: 'Hall A' },
      { id: 'l2', name: 'Hall B' },
    ]),
    'GET /api/filters/regions/': data(['Emilia-Romagna']),
    'GET /api/filters/machines/': data([
      { id: 'm1', name: 'Lobby snack' },
      { id: 'm2', name: 'Gym drinks' },
    ]),
    'GET /api/filters/machines/tags/': data([]),
    'GET /api/filters/products/': data([{ id: 'p1', name: 'Espresso' }]),
    'GET /api/filters/products/tags/': data([]),
    'GET /api/filters/employees/': data([{ id: 'e1', name: 'Marco Bianchi' }]),
  };
}

interface ReportRender {
  /** The route's path and title. */
  path: string;
  title: I18nKey;
  screen: ReactNode;
  url: string;
  /** The user's permission keys. */
  modules: string[];
}

/** Renders a report screen at `url` for a user with these permission keys; returns the router. */
export function renderReport({ path, title, screen, url, modules }: ReportRender) {
  const routes: RouteObject[] = [
    {
      path,
      element: (
        <SnackbarProvider>
          {screen}
          <ExportJobs />
        </SnackbarProvider>
      ),
      handle: { title },
    },
  ];
  return renderRoutes(routes, url, signedIn(modules));
}

/** The parameters of the last call to `path` (undefined when there was none). */
export function lastParams(calls: Call[], path: string): Record<string, string> | undefined {
  const call = calls.filter((item) => item.path === path).at(-1);
  return call ? Object.fromEntries(new URLSearchParams(call.search)) : undefined;
}

/** The text of an element, its spaces (narrow, no-break) made plain. */
export function plain(element: Element | null | undefined): string {
  return (element?.textContent ?? '').replace(/\s/g, ' ');
}

/** The export at `path` answers 202: the server queued a job preparing `fileName`, which then reads as running. */
export function queuedExport(path: string, fileName: string): Routes {
  const job = { id: 'job-1', kind: 'export', progress: 0, file_name: fileName, total: 60000, download_url: null, error: null, created_at: '2026-11-23T10:00:00Z', updated_at: '2026-11-23T10:00:00Z' };
  return {
    [`GET ${path}`]: () => ({ status: 202, body: { message: 'Export queued', code: 'export_queued', data: { ...job, status: 'queued' } } }),
    [`GET /api/jobs/${job.id}/`]: data({ ...job, status: 'running', progress: 30 }),
  };
}
