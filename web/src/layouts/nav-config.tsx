import type { ReactNode } from 'react';
import DashboardIcon from '@mui/icons-material/SpaceDashboardOutlined';
import ReportsIcon from '@mui/icons-material/AssessmentOutlined';
import PlanningIcon from '@mui/icons-material/RouteOutlined';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import type { I18nKey } from '../locales/keys';
import { paths } from '../routes/paths';

/** A navigation entry (spec section 3): `title` is a translation key. */
export interface NavItem {
  title: I18nKey;
  path: string;
  icon?: ReactNode;
  /** Permission (module) key; an item without one is always visible. */
  key?: string;
  /** When set, only these roles see the item. */
  roles?: string[];
  children?: NavItem[];
  disabled?: boolean;
  caption?: I18nKey;
  info?: ReactNode;
  /** Shown whatever the permissions. */
  forceShow?: boolean;
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

/** Menu entries for pages, in order, each given by its name and its permission (module) key. */
function pages(entries: [page: Page, key: string][]): NavItem[] {
  return entries.map(([page, key]) => ({ title: `nav.${page}`, path: PAGES[page], key }));
}

export const navConfig: NavGroup[] = [
  {
    subheader: 'nav.overview',
    items: [{ title: 'nav.dashboard', path: paths.dashboard.root, icon: <DashboardIcon /> }],
  },
  {
    subheader: 'nav.management',
    items: [
      {
        title: 'nav.reports',
        path: paths.report.root,
        icon: <ReportsIcon />,
        children: pages([
          ['salesOverview', 'reports.sales_overview.list'],
          ['encashment', 'reports.encashment.list'],
          ['refillLog', 'reports.refill_log.list'],
          ['reportGenerator', 'reports.report_generator.reports_list'],
          ['inventoryReport', 'reports.inventory_report.products_list'],
          ['transactionLog', 'reports.transaction_log.list'],
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
        ]),
      },
    ],
  },
];
