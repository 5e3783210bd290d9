import { screen } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RouteGate } from '../layouts/dashboard/route-gate';
import { renderRoutes, signedIn } from '../test/render-app';
import type { RouteHandle } from './handle';
import { paths } from './paths';
import { protectedRoutes } from './router';

// The history import's screen (issue 49) in the route table: its address, its permission, its
// breadcrumbs back to the data sources, and a user without the key shown "Permission denied".
describe('the history import’s route', () => {
  const route = protectedRoutes.find((entry) => entry.path === paths.settings.historyImport);
  const handle = route?.handle as RouteHandle | undefined;

  it('is guarded by settings.data_sources.import, under the data sources', async () => {
    expect(paths.settings.historyImport).toBe('/settings/data-sources/import');
    expect(handle).toEqual({
      title: 'dataSources.imports.title',
      crumbs: [
        { title: 'nav.settings', href: paths.settings.userManagement },
        { title: 'nav.dataSources', href: paths.settings.dataSources },
      ],
      permission: 'settings.data_sources.import',
    });
    // Its screen is a lazy page of its own.
    const lazy = route?.lazy as (() => Promise<{ Component?: unknown }>) | undefined;
    expect(typeof (await lazy?.())?.Component).toBe('function');
  });

  const gated = (): RouteObject[] => [{ path: paths.settings.historyImport, handle, element: <RouteGate><p data-testid="screen" /></RouteGate> }];

  it('shows "Permission denied" to a user without the key', async () => {
    renderRoutes(gated(), paths.settings.historyImport, signedIn(['settings.data_sources.list']));
    expect((await screen.findByTestId('forbidden')).textContent).toContain('Permission denied');
    expect(screen.queryByTestId('screen')).toBeNull();
  });

  it('opens for a user with it', async () => {
    renderRoutes(gated(), paths.settings.historyImport, signedIn(['settings.data_sources.import']));
    expect(await screen.findByTestId('screen')).toBeTruthy();
  });
});
