import { describe, expect, it } from 'vitest';
import type { Profile } from '../api/types';
import { canReport, reportKeys } from './permissions';

const user = (modules: string[], all = false) => ({ id: 'u1', module: { modules, access_all_modules: all } }) as unknown as Profile;

describe('report permissions', () => {
  it('grant a part by its own key or by the area’s full access', () => {
    expect(canReport(user(['reports.transaction_log.full_access']), 'transaction_log', 'export')).toBe(true);
    expect(canReport(user(['reports.transaction_log.list']), 'transaction_log', 'list')).toBe(true);
    expect(canReport(user(['reports.transaction_log.list']), 'transaction_log', 'export')).toBe(false);
    expect(canReport(user(['reports.sales_overview.full_access']), 'transaction_log', 'list')).toBe(false);
    expect(canReport(user([], true), 'encashment', 'total')).toBe(true);
    expect(canReport(null, 'encashment', 'list')).toBe(false);
  });

  it('name every key of an area', () => {
    expect(reportKeys('encashment')).toEqual(['reports.encashment.list', 'reports.encashment.total', 'reports.encashment.export']);
    expect(reportKeys('inventory_report')).toContain('reports.inventory_report.components_export');
  });
});
