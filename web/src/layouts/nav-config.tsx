import type { ReactNode } from 'react';
import DashboardIcon from '@mui/icons-material/SpaceDashboardOutlined';
import ReportsIcon from '@mui/icons-material/AssessmentOutlined';
import PlanningIcon from '@mui/icons-material/RouteOutlined';
import MyDayIcon from '@mui/icons-material/LocalShippingOutlined';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import { DATA_POLICY_KEYS, reportKeys } from '../auth/permissions';
import type { I18nKey } from '../locales/keys';
import { paths } from '../routes/paths';

/** A navigation entry (spec section 3): `title` is a translation key. */
export interface NavItem {
  title: I18nKey;
  path: string;
  icon?: ReactNode;
  /** Permission (module) key, or keys of which any will do; an item without one is always visible. */
  key?: string | readonly string[];
  /** When set, only these roles see the item. */
  roles?: string[];
  children?: NavItem[];
  disabled?: boolean;
  caption?: I18nKey;
  info?: ReactNode;
  /** Shown whatever the permissions. */
  forceShow?: boolean;
  /** Only for a fleet administrator (see `nav-visibility.ts`). */
  fleetAdmin?: boolean;
}

export interface NavGroup {
  subheader: I18nKey;
  items: NavItem[];
}

/** The pages the menu can list, by name: a page's title is `nav.<name>`. */
const PAGES = { ...paths.report, ...paths.planning, ...paths.settings };

type Page = {
  [P in keyof typeof PAGES]: (typeof PAGES)[P] extends string ? (`nav.${P}` extends I18nKey ? P : never) : never;
}[keyof typeof PAGES];

/** Menu entries for pages, in order, each given by its name and its permission (module) key or keys. */
function pages(entries: [page: Page, key: string | readonly string[]][]): NavItem[] {
  return entries.map(([page, key]) => ({ title: `nav.${page}`, path: PAGES[page], key }));
}

export const navConfig: NavGroup[] = [
  {
    subheader: 'nav.overview',
    items: [
      { title: 'nav.dashboard', path: paths.dashboard.root, icon: <DashboardIcon /> },
      // The refiller's phone app: whoever reads their routes.
      { title: 'nav.myDay', path: paths.myDay.root, icon: <MyDayIcon />, key: 'planning.planned_routes.list' },
    ],
  },
  {
    subheader: 'nav.management',
    items: [
      {
        title: 'nav.reports',
        path: paths.report.root,
        icon: <ReportsIcon />,
        children: pages([
          // A report shows with any of its keys (a user with only its export or full access too).
          ['salesOverview', reportKeys('sales_overview')],
          ['encashment', reportKeys('encashment')],
          ['refillLog', reportKeys('refill_log')],
          ['reportGenerator', reportKeys('report_generator')],
          ['inventoryReport', reportKeys('inventory_report')],
          ['transactionLog', reportKeys('transaction_log')],
          ['cardSettlements', ['reports.settlements.list', 'reports.settlements.import', 'reports.settlements.export']],
          ['vat', reportKeys('vat')],
          ['visitLedger', reportKeys('visit_ledger')],
        ]),
      },
      {
        title: 'nav.planning',
        path: '/planning',
        icon: <PlanningIcon />,
        children: pages([
          ['routePlanning', 'planning.route_planning.list'],
          ['plannedRoutes', 'planning.planned_routes.list'],
        ]),
      },
      {
        title: 'nav.settings',
        path: '/settings',
        icon: <SettingsIcon />,
        children: pages([
          ['userManagement', 'settings.users.list'],
          ['clientManagement', 'settings.clients.list'],
          ['locationManagement', 'settings.locations.list'],
          ['queryScheduler', 'settings.query_scheduler.list'],
          ['modelManagement', 'settings.models.list'],
          ['machineManagement', 'settings.machines.list'],
          ['productManagement', 'settings.products.list'],
          // The policy on data leaving the system: for whoever schedules mail or administers access.
          ['dataPolicy', DATA_POLICY_KEYS],
          // Nayax Core's feeds and the messages kept unbooked.
          ['dataSources', 'settings.data_sources.list'],
        ]).concat([
          // What left the system: for the administrator who may change that policy.
          { title: 'nav.auditTrail', path: paths.settings.auditTrail, fleetAdmin: true },
        ]),
      },
    ],
  },
];
