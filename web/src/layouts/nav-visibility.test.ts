import { describe, expect, it } from 'vitest';
import type { Profile } from '../api/types';
import { navConfig, type NavItem } from './nav-config';
import { filterNavGroups, filterNavItems, isItemVisible } from './nav-visibility';

function profile(patch: Partial<Profile> = {}, modules: string[] = [], all = false): Profile {
  return {
    id: 'u1',
    name: 'Ann',
    displayName: 'Ann',
    email: 'ann@example.com',
    phone_number: '',
    role_name: 'Refiller',
    role_id: 'r1',
    permission: [],
    positions: [],
    module: { modules, access_all_modules: all },
    language: 'en',
    role_level: 'user',
    access_all_machines: false,
    photoURL: null,
    ...patch,
  };
}

function titles(items: NavItem[]): string[] {
  return items.flatMap((item) => [item.title, ...titles(item.children ?? [])]);
}

describe('navigation visibility (spec section 4)', () => {
  it('shows everything to a user with all-modules access who administers the fleet', () => {
    const groups = filterNavGroups(navConfig, profile({}, [], true), { fleetAdmin: true });
    const all = titles(navConfig.flatMap((group) => group.items));
    expect(titles(groups.flatMap((group) => group.items))).toEqual(all);
  });

  it('shows the audit trail only to a fleet administrator, the data policy to who schedules mail or administers access', () => {
    const everyKey = profile({}, [], true);
    const visible = (user: Profile, fleetAdmin: boolean) => titles(filterNavGroups(navConfig, user, { fleetAdmin }).flatMap((group) => group.items));
    // All modules but not every machine: the operator's settings say not editable.
    expect(visible(everyKey, false)).not.toContain('nav.auditTrail');
    expect(visible(everyKey, false)).toContain('nav.dataPolicy');
    expect(visible(everyKey, true)).toContain('nav.auditTrail');
    // Someone who schedules queries reads the policy their mail follows; a refiller sees neither.
    expect(visible(profile({}, ['settings.query_scheduler.list']), false)).toEqual(['nav.dashboard', 'nav.settings', 'nav.queryScheduler', 'nav.dataPolicy']);
    expect(visible(profile({}, ['planning.planned_routes.list']), false)).not.toContain('nav.dataPolicy');
    // The item's own rule holds without any other key.
    expect(isItemVisible({ title: 'nav.auditTrail', path: '/x', fleetAdmin: true } as NavItem, profile(), { fleetAdmin: true })).toBe(true);
    expect(isItemVisible({ title: 'nav.auditTrail', path: '/x', fleetAdmin: true } as NavItem, profile({}, [], true))).toBe(false);
  });

  it('shows an item when its key is in the modules list, and its group with it', () => {
    const groups = filterNavGroups(navConfig, profile({}, ['reports.encashment.list']));
    const visible = titles(groups.flatMap((group) => group.items));
    expect(visible).toEqual(['nav.dashboard', 'nav.reports', 'nav.encashment']);
  });

  it('a refiller (their routes and the stock of a visit) sees "My day" beside the dashboard (issue 30)', () => {
    const groups = filterNavGroups(navConfig, profile({}, ['planning.planned_routes.list', 'settings.machines.edit_quantity_expiry']));
    expect(titles(groups[0].items)).toEqual(['nav.dashboard', 'nav.myDay']);
    expect(groups[0].items[1].path).toBe('/my-day');
  });

  it('shows the data sources in the settings to whoever lists them (the inbox key alone does not)', () => {
    const visible = (modules: string[]) => titles(filterNavGroups(navConfig, profile({}, modules)).flatMap((group) => group.items));
    expect(visible(['settings.data_sources.list'])).toEqual(['nav.dashboard', 'nav.settings', 'nav.dataSources']);
    expect(visible(['settings.data_sources.inbox'])).not.toContain('nav.dataSources');
    const item = navConfig.flatMap((group) => group.items).flatMap((entry) => entry.children ?? []).find((entry) => entry.title === 'nav.dataSources');
    expect(item?.path).toBe('/settings/data-sources');
  });

  it('hides a group when no child is permitted', () => {
    const groups = filterNavGroups(navConfig, profile({}, ['settings.users.list']));
    const visible = titles(groups.flatMap((group) => group.items));
    expect(visible).not.toContain('nav.reports');
    expect(visible).not.toContain('nav.planning');
    expect(visible).toContain('nav.settings');
    expect(visible).toContain('nav.userManagement');
  });

  it('always shows the dashboard, even with no modules', () => {
    const groups = filterNavGroups(navConfig, profile());
    expect(groups).toHaveLength(1);
    expect(titles(groups[0].items)).toEqual(['nav.dashboard']);
  });

  it('honours roles lists, defaulting the current role to admin', () => {
    const adminOnly: NavItem = { title: 'nav.settings', path: '/x', roles: ['admin'] };
    expect(isItemVisible(adminOnly, profile({ role_level: 'user' }, [], true))).toBe(false);
    expect(isItemVisible(adminOnly, profile({ role_level: 'admin' }))).toBe(true);
    expect(isItemVisible(adminOnly, profile({ role_level: '' }))).toBe(true);
  });

  it('keeps forceShow items and drops unpermitted children', () => {
    const items: NavItem[] = [
      {
        title: 'nav.reports',
        path: '/report',
        forceShow: true,
        children: [{ title: 'nav.encashment', path: '/report/encashment', key: 'reports.encashment.list' }],
      },
    ];
    const result = filterNavItems(items, profile());
    expect(result).toHaveLength(1);
    expect(result[0].children).toEqual([]);
  });

  it('shows a report with any key of its area (full access, export or totals alone)', () => {
    const reports = (modules: string[]) => titles(filterNavGroups(navConfig, profile({}, modules)).flatMap((group) => group.items));
    expect(reports(['reports.sales_overview.full_access'])).toEqual(['nav.dashboard', 'nav.reports', 'nav.salesOverview']);
    expect(reports(['reports.sales_overview.graph'])).toContain('nav.salesOverview');
    expect(reports(['reports.encashment.total'])).toEqual(['nav.dashboard', 'nav.reports', 'nav.encashment']);
    expect(reports(['reports.refill_log.export'])).toContain('nav.refillLog');
    expect(reports(['reports.inventory_report.components_list'])).toEqual(['nav.dashboard', 'nav.reports', 'nav.inventoryReport']);
    expect(reports(['reports.transaction_log.full_access'])).toEqual(['nav.dashboard', 'nav.reports', 'nav.transactionLog']);
    expect(reports(['reports.report_generator.templates_list'])).toContain('nav.reportGenerator');
    // A key of another area does not open it.
    expect(reports(['reports.encashment.list'])).not.toContain('nav.salesOverview');
  });

  it('takes one key or a list of which any will do', () => {
    const item: NavItem = { title: 'nav.encashment', path: '/e', key: ['reports.encashment.list', 'reports.encashment.export'] };
    expect(isItemVisible(item, profile({}, ['reports.encashment.export']))).toBe(true);
    expect(isItemVisible(item, profile({}, ['reports.refill_log.export']))).toBe(false);
  });

  it('also accepts keys from the effective permission list', () => {
    const item: NavItem = { title: 'nav.refillLog', path: '/r', key: 'reports.refill_log.list' };
    expect(isItemVisible(item, profile({ permission: ['reports.refill_log.list'] }))).toBe(true);
    expect(isItemVisible(item, null)).toBe(false);
  });
});
