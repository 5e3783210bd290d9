import type { Profile } from '../api/types';

/** True when the user may use the module (permission key): all-modules access or the key is granted. */
export function hasModule(user: Profile | null | undefined, key: string): boolean {
  if (!user) return false;
  if (user.module?.access_all_modules) return true;
  return (user.module?.modules ?? []).includes(key) || (user.permission ?? []).includes(key);
}

/** The role name used by navigation `roles` lists; 'admin' when the user has none (spec section 6). */
export function currentRole(user: Profile | null | undefined): string {
  return user?.role_level || 'admin';
}

/**
 * The permission keys of each report (`reports.<area>.<part>`). A report's screen and menu entry
 * show with any of them; each part of the screen needs its own key or the area's full access.
 */
export const REPORT_PERMISSIONS = {
  sales_overview: ['graph', 'list', 'total_list', 'export', 'full_access'],
  encashment: ['list', 'total', 'export'],
  refill_log: ['list', 'total_list', 'export'],
  report_generator: ['reports_list', 'templates_list', 'run', 'new', 'delete_report', 'delete_template', 'edit_template'],
  inventory_report: ['products_list', 'products_export', 'components_list', 'components_export'],
  transaction_log: ['list', 'export', 'full_access'],
  vat: ['list', 'export'],
  visit_ledger: ['list', 'export'],
} as const;

export type ReportArea = keyof typeof REPORT_PERMISSIONS;
export type ReportPart<A extends ReportArea> = (typeof REPORT_PERMISSIONS)[A][number];

/** Every key of a report: having any of them opens it. */
export function reportKeys(area: ReportArea): string[] {
  return REPORT_PERMISSIONS[area].map((part) => `reports.${area}.${part}`);
}

/** Whether the user may use a part of a report: its key, or the area's full access. */
export function canReport<A extends ReportArea>(user: Profile | null | undefined, area: A, part: ReportPart<A>): boolean {
  return hasModule(user, `reports.${area}.full_access`) || hasModule(user, `reports.${area}.${part}`);
}

/**
 * Who opens the data-policy screen (the operator's policy on data leaving the system): whoever
 * schedules mail or administers access, any of these keys. Only a fleet administrator changes it.
 */
export const DATA_POLICY_KEYS = ['settings.query_scheduler.list', 'settings.users.edit', 'settings.roles.edit'];
