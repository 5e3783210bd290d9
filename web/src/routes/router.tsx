import { Navigate, Outlet, createBrowserRouter, type RouteObject } from 'react-router';
import { AuthGuard, GuestGuard } from '../auth/guards';
import { DATA_POLICY_KEYS, reportKeys } from '../auth/permissions';
import { LoadingScreen } from '../components/loading-screen';
import { NavigationProgress } from '../components/navigation-progress';
import { RouteErrorView } from '../components/error-views';
import { ScrollToTop } from '../components/scroll-to-top';
import { AuthLayout } from '../layouts/auth-layout';
import { loadAreaCatalogues } from '../locales/i18n';
import type { RouteHandle } from './handle';
import { lazyPage } from './lazy';
import { paths } from './paths';

const placeholder = lazyPage(() => import('./pages/placeholder'));

const REPORTS = { title: 'nav.reports', href: paths.report.salesOverview } as const;
const PLANNING = { title: 'nav.planning', href: paths.planning.routePlanning } as const;
const PLANNED_ROUTES = { title: 'nav.plannedRoutes', href: paths.planning.plannedRoutes } as const;
const SETTINGS = { title: 'nav.settings', href: paths.settings.userManagement } as const;
const USERS = { title: 'nav.userManagement', href: paths.settings.userManagement } as const;
const LOCATIONS = { title: 'nav.locationManagement', href: paths.settings.locationManagement } as const;
const MODELS = { title: 'nav.modelManagement', href: paths.settings.modelManagement } as const;
const MACHINES = { title: 'nav.machineManagement', href: paths.settings.machineManagement } as const;
const GENERATOR = { title: 'nav.reportGenerator', href: paths.report.reportGenerator } as const;
const QUERIES = { title: 'nav.queryScheduler', href: paths.settings.queryScheduler } as const;
const DATA_SOURCES = { title: 'nav.dataSources', href: paths.settings.dataSources } as const;

function screen(path: string, handle: RouteHandle, lazy = placeholder): RouteObject {
  return { path, handle, lazy };
}

/** Every protected screen of spec section 2 with its title, breadcrumbs and permission key. */
export const protectedRoutes: RouteObject[] = [
  screen(paths.dashboard.root, { title: 'nav.dashboard' }, lazyPage(() => import('../features/dashboard/pages/dashboard-page'))),
  screen(paths.account, { title: 'nav.account' }, lazyPage(() => import('../features/account/pages/account-page'))),
  // Leftovers of the template's route table: no screens of their own.
  { path: '/dashboard/one', element: <Navigate to={paths.dashboard.root} replace /> },
  { path: '/dashboard/route-planning', element: <Navigate to={paths.planning.routePlanning} replace /> },
  { path: '/dashboard/three', element: <Navigate to={paths.dashboard.root} replace /> },
  { path: '/dashboard/group', element: <Navigate to={paths.dashboard.root} replace /> },
  { path: '/dashboard/group/five', element: <Navigate to={paths.dashboard.root} replace /> },
  { path: '/dashboard/group/six', element: <Navigate to={paths.dashboard.root} replace /> },

  { path: paths.report.root, element: <Navigate to={paths.report.salesOverview} replace /> },
  screen(
    paths.report.salesOverview,
    {
      title: 'nav.salesOverview',
      crumbs: [REPORTS],
      // Each part of a report has its own key; any of them opens the screen.
      permission: reportKeys('sales_overview'),
    },
    lazyPage(() => import('../features/sales/pages/sales-overview-page')),
  ),
  screen(
    paths.report.encashment,
    { title: 'nav.encashment', crumbs: [REPORTS], permission: reportKeys('encashment') },
    lazyPage(() => import('../features/encashment/pages/encashment-page')),
  ),
  screen(
    paths.report.refillLog,
    { title: 'nav.refillLog', crumbs: [REPORTS], permission: reportKeys('refill_log') },
    lazyPage(() => import('../features/refill-log/pages/refill-log-page')),
  ),
  screen(
    paths.report.reportGenerator,
    { title: 'nav.reportGenerator', crumbs: [REPORTS], permission: reportKeys('report_generator') },
    lazyPage(() => import('../features/report-generator/pages/report-generator-page')),
  ),
  screen(
    paths.report.createReport,
    { title: 'nav.createReport', crumbs: [REPORTS, GENERATOR], permission: ['reports.report_generator.new', 'reports.report_generator.run'] },
    lazyPage(() => import('../features/report-generator/pages/report-edit-page')),
  ),
  screen(
    `${paths.report.createReport}/:templateId`,
    // Someone who may only make new reports opens a template to generate a report from it.
    { title: 'nav.editTemplate', crumbs: [REPORTS, GENERATOR], permission: ['reports.report_generator.edit_template', 'reports.report_generator.new', 'reports.report_generator.run'] },
    lazyPage(() => import('../features/report-generator/pages/report-edit-page')),
  ),
  screen(
    paths.report.inventoryReport,
    { title: 'nav.inventoryReport', crumbs: [REPORTS], permission: reportKeys('inventory_report') },
    lazyPage(() => import('../features/inventory/pages/inventory-page')),
  ),
  screen(
    paths.report.transactionLog,
    { title: 'nav.transactionLog', crumbs: [REPORTS], permission: reportKeys('transaction_log') },
    lazyPage(() => import('../features/transaction-log/pages/transaction-log-page')),
  ),
  screen(
    paths.report.cardSettlements,
    { title: 'nav.cardSettlements', crumbs: [REPORTS], permission: ['reports.settlements.list', 'reports.settlements.import', 'reports.settlements.export'] },
    lazyPage(() => import('../features/settlements/pages/settlements-page')),
  ),
  screen(paths.report.vat, { title: 'nav.vat', crumbs: [REPORTS], permission: reportKeys('vat') }, lazyPage(() => import('../features/vat/pages/vat-page'))),
  screen(
    paths.report.visitLedger,
    { title: 'nav.visitLedger', crumbs: [REPORTS], permission: reportKeys('visit_ledger') },
    lazyPage(() => import('../features/visit-ledger/pages/visit-ledger-page')),
  ),

  screen(
    paths.planning.routePlanning,
    { title: 'nav.routePlanning', crumbs: [PLANNING], permission: 'planning.route_planning.list' },
    lazyPage(() => import('../features/route-planning/pages/route-planning-page')),
  ),
  screen(
    paths.planning.plannedRoutes,
    { title: 'nav.plannedRoutes', crumbs: [PLANNING], permission: 'planning.planned_routes.list' },
    lazyPage(() => import('../features/planned-routes/pages/planned-routes-page')),
  ),
  screen(
    `${paths.planning.plannedRoutes}/:routeId`,
    { title: 'nav.plannedRoute', crumbs: [PLANNING, PLANNED_ROUTES], permission: 'planning.planned_routes.list' },
    lazyPage(() => import('../features/planned-routes/pages/planned-route-page')),
  ),

  screen(
    paths.settings.userManagement,
    { title: 'nav.userManagement', crumbs: [SETTINGS], permission: ['settings.users.list', 'settings.roles.list'] },
    lazyPage(() => import('../features/users/pages/user-management-page')),
  ),
  screen(
    paths.settings.createUser,
    { title: 'nav.createUser', crumbs: [SETTINGS, USERS], permission: 'settings.users.new' },
    lazyPage(() => import('../features/users/pages/user-edit-page')),
  ),
  screen(
    `${paths.settings.createUser}/:userId`,
    { title: 'nav.editUser', crumbs: [SETTINGS, USERS], permission: 'settings.users.edit' },
    lazyPage(() => import('../features/users/pages/user-edit-page')),
  ),
  screen(
    paths.settings.createRole,
    { title: 'nav.createRole', crumbs: [SETTINGS, USERS], permission: 'settings.roles.new' },
    lazyPage(() => import('../features/users/pages/role-edit-page')),
  ),
  screen(
    `${paths.settings.createRole}/:roleId`,
    { title: 'nav.editRole', crumbs: [SETTINGS, USERS], permission: 'settings.roles.edit' },
    lazyPage(() => import('../features/users/pages/role-edit-page')),
  ),
  screen(
    paths.settings.clientManagement,
    { title: 'nav.clientManagement', crumbs: [SETTINGS], permission: 'settings.clients.list' },
    lazyPage(() => import('../features/fleet/pages/client-management-page')),
  ),
  screen(
    paths.settings.locationManagement,
    { title: 'nav.locationManagement', crumbs: [SETTINGS], permission: 'settings.locations.list' },
    lazyPage(() => import('../features/fleet/pages/location-management-page')),
  ),
  screen(
    paths.settings.createLocation,
    { title: 'nav.createLocation', crumbs: [SETTINGS, LOCATIONS], permission: 'settings.locations.new' },
    lazyPage(() => import('../features/fleet/pages/location-edit-page')),
  ),
  screen(
    `${paths.settings.createLocation}/:locationId`,
    { title: 'nav.editLocation', crumbs: [SETTINGS, LOCATIONS], permission: 'settings.locations.edit' },
    lazyPage(() => import('../features/fleet/pages/location-edit-page')),
  ),
  screen(
    paths.settings.queryScheduler,
    { title: 'nav.queryScheduler', crumbs: [SETTINGS], permission: 'settings.query_scheduler.list' },
    lazyPage(() => import('../features/query-scheduler/pages/query-scheduler-page')),
  ),
  screen(
    '/settings/create-query/:module',
    { title: 'nav.createQuery', crumbs: [SETTINGS, QUERIES], permission: 'settings.query_scheduler.new' },
    lazyPage(() => import('../features/query-scheduler/pages/query-edit-page')),
  ),
  screen(
    '/settings/create-query/:module/:queryId',
    { title: 'nav.editQuery', crumbs: [SETTINGS, QUERIES], permission: 'settings.query_scheduler.edit' },
    lazyPage(() => import('../features/query-scheduler/pages/query-edit-page')),
  ),
  screen(
    paths.settings.modelManagement,
    { title: 'nav.modelManagement', crumbs: [SETTINGS], permission: 'settings.models.list' },
    lazyPage(() => import('../features/fleet/pages/model-management-page')),
  ),
  screen(
    paths.settings.createModel,
    { title: 'nav.createModel', crumbs: [SETTINGS, MODELS], permission: 'settings.models.new' },
    lazyPage(() => import('../features/fleet/pages/model-edit-page')),
  ),
  screen(
    `${paths.settings.createModel}/:modelId`,
    { title: 'nav.editModel', crumbs: [SETTINGS, MODELS], permission: 'settings.models.edit' },
    lazyPage(() => import('../features/fleet/pages/model-edit-page')),
  ),
  screen(
    paths.settings.machineManagement,
    { title: 'nav.machineManagement', crumbs: [SETTINGS], permission: 'settings.machines.list' },
    lazyPage(() => import('../features/machines/pages/machine-management-page')),
  ),
  screen(
    paths.settings.createMachine,
    { title: 'nav.createMachine', crumbs: [SETTINGS, MACHINES], permission: 'settings.machines.new' },
    lazyPage(() => import('../features/machines/pages/machine-create-page')),
  ),
  screen(
    `${paths.settings.machineManagement}/:machineId/:tab`,
    { title: 'nav.machineOverview', crumbs: [SETTINGS, MACHINES], permission: 'settings.machines.list' },
    lazyPage(() => import('../features/machines/pages/machine-page')),
  ),
  screen(
    paths.settings.productManagement,
    { title: 'nav.productManagement', crumbs: [SETTINGS], permission: ['settings.products.list', 'settings.components.list', 'settings.composite_products.list', 'settings.product_tags.list'] },
    lazyPage(() => import('../features/products/pages/product-management-page')),
  ),
  screen(
    paths.settings.dataPolicy,
    { title: 'nav.dataPolicy', crumbs: [SETTINGS], permission: DATA_POLICY_KEYS },
    lazyPage(() => import('../features/operator-settings/pages/data-policy-page')),
  ),
  screen(
    // For a fleet administrator only: the page asks the operator's settings (no permission key says it).
    paths.settings.auditTrail,
    { title: 'nav.auditTrail', crumbs: [SETTINGS] },
    lazyPage(() => import('../features/audit/pages/audit-trail-page')),
  ),
  screen(
    paths.settings.dataSources,
    { title: 'nav.dataSources', crumbs: [SETTINGS], permission: 'settings.data_sources.list' },
    lazyPage(() => import('../features/data-sources/pages/data-sources-page')),
  ),
  screen(
    paths.settings.historyImport,
    { title: 'dataSources.imports.title', crumbs: [SETTINGS, DATA_SOURCES], permission: 'settings.data_sources.import' },
    lazyPage(() => import('../features/data-sources/pages/import-page')),
  ),
];

const MY_DAY = { title: 'nav.myDay', href: paths.myDay.root } as const;
const REFILLER = 'planning.planned_routes.list';

/** The refiller's phone app (issue 30), in its own layout. */
export const myDayRoutes: RouteObject[] = [
  screen(paths.myDay.root, { title: 'nav.myDay', permission: REFILLER }, lazyPage(() => import('../features/my-day/pages/my-routes-page'))),
  screen('/my-day/routes/:routeId', { title: 'myDay.routes', crumbs: [MY_DAY], permission: REFILLER }, lazyPage(() => import('../features/my-day/pages/route-page'))),
  screen(
    '/my-day/routes/:routeId/stops/:machineId',
    { title: 'myDay.openStop', crumbs: [MY_DAY], permission: REFILLER },
    lazyPage(() => import('../features/my-day/pages/stop-page')),
  ),
  screen(paths.myDay.queue, { title: 'myDay.queue', crumbs: [MY_DAY], permission: REFILLER }, lazyPage(() => import('../features/my-day/pages/queue-page'))),
  screen(paths.myDay.loading, { title: 'myDay.loading', crumbs: [MY_DAY], permission: REFILLER }, lazyPage(() => import('../features/my-day/pages/loading-page'))),
];

function Root() {
  return (
    <>
      <ScrollToTop />
      <NavigationProgress />
      <Outlet />
    </>
  );
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorView />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      { path: paths.root, element: <Navigate to={paths.dashboard.root} replace /> },
      {
        path: '/auth/jwt',
        element: (
          <GuestGuard>
            <AuthLayout />
          </GuestGuard>
        ),
        children: [
          { index: true, element: <Navigate to={paths.auth.login} replace /> },
          { path: 'login', lazy: lazyPage(() => import('../auth/pages/login')) },
          { path: 'register', lazy: lazyPage(() => import('../auth/pages/register')) },
        ],
      },
      {
        element: <AuthGuard><Outlet /></AuthGuard>,
        children: [
          {
            // The signed-in screens render once the areas' strings are in (the sign-in page did without).
            lazy: lazyPage(() => Promise.all([import('../app/signed-in'), loadAreaCatalogues()]).then(([layout]) => layout)),
            children: [{ errorElement: <RouteErrorView />, children: protectedRoutes }],
          },
          {
            lazy: lazyPage(() => Promise.all([import('../layouts/my-day-layout'), loadAreaCatalogues()]).then(([layout]) => layout)),
            children: [{ errorElement: <RouteErrorView />, children: myDayRoutes }],
          },
        ],
      },
      { path: paths.notFound, lazy: lazyPage(() => import('./pages/not-found')) },
      { path: '*', element: <Navigate to={paths.notFound} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
