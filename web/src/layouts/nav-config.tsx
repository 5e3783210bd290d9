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
        children: [
          { title: 'nav.salesOverview', path: paths.report.salesOverview, key: 'reports.sales_overview.list' },
          { title: 'nav.encashment', path: paths.report.encashment, key: 'reports.encashment.list' },
          { title: 'nav.refillLog', path: paths.report.refillLog, key: 'reports.refill_log.list' },
          { title: 'nav.reportGenerator', path: paths.report.reportGenerator, key: 'reports.report_generator.reports_list' },
          { title: 'nav.inventoryReport', path: paths.report.inventoryReport, key: 'reports.inventory_report.products_list' },
          { title: 'nav.transactionLog', path: paths.report.transactionLog, key: 'reports.transaction_log.list' },
        ],
      },
      {
        title: 'nav.planning',
        path: '/planning',
        icon: <PlanningIcon />,
        children: [
          { title: 'nav.routePlanning', path: paths.planning.routePlanning, key: 'planning.route_planning.list' },
          { title: 'nav.plannedRoutes', path: paths.planning.plannedRoutes, key: 'planning.planned_routes.list' },
        ],
      },
      {
        title: 'nav.settings',
        path: '/settings',
        icon: <SettingsIcon />,
        children: [
          { title: 'nav.userManagement', path: paths.settings.userManagement, key: 'settings.users.list' },
          { title: 'nav.clientManagement', path: paths.settings.clientManagement, key: 'settings.clients.list' },
          { title: 'nav.locationManagement', path: paths.settings.locationManagement, key: 'settings.locations.list' },
          { title: 'nav.queryScheduler', path: paths.settings.queryScheduler, key: 'settings.query_scheduler.list' },
          { title: 'nav.modelManagement', path: paths.settings.modelManagement, key: 'settings.models.list' },
          { title: 'nav.machineManagement', path: paths.settings.machineManagement, key: 'settings.machines.list' },
          { title: 'nav.productManagement', path: paths.settings.productManagement, key: 'settings.products.list' },
        ],
      },
    ],
  },
];
