import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REPORT_FILTERS,
  ENCASHMENT_CONTROLS,
  INVENTORY_CONTROLS,
  REFILL_CONTROLS,
  REFILL_SINGLE,
  SALES_CONTROLS,
  TRANSACTION_CONTROLS,
} from '../report-filters/report-filter-state';
import { defaultParams, filtersOf, inServerOrder, MODULE_CONTROLS, MODULE_SINGLE, paramsOf, paramsProblem } from './definition-logic';

describe('a module’s parameters', () => {
  it('are the controls of the module’s own report screen', () => {
    expect(MODULE_CONTROLS.sales_overview).toEqual(SALES_CONTROLS);
    expect(MODULE_CONTROLS.encashment).toEqual(ENCASHMENT_CONTROLS);
    expect(MODULE_CONTROLS.refill_log).toEqual(REFILL_CONTROLS);
    expect(MODULE_SINGLE.refill_log ?? []).toEqual(REFILL_SINGLE);
    expect(MODULE_CONTROLS.inventory).toEqual(INVENTORY_CONTROLS);
    expect(MODULE_CONTROLS.transaction_log).toEqual(TRANSACTION_CONTROLS);
  });

  it('hold only what the screen’s address would: no empty list, dates only with a custom period', () => {
    const filters = { ...DEFAULT_REPORT_FILTERS, machines: ['m1', 'm2'], employees: ['e1'], products: ['p1'], date_from: '2026-01-01' };
    expect(paramsOf('encashment', filters)).toEqual({ period: 'current_month', machines: 'm1,m2', employees: 'e1' });
    expect(paramsOf('sales_overview', filters)).toEqual({
      period: 'current_month',
      value: 'sales',
      group_by: 'machine',
      grouping_period: 'day',
      machines: 'm1,m2',
      products: 'p1',
    });
    expect(paramsOf('transaction_log', { ...filters, period: 'custom', date_from: '2026-01-01', date_to: '2026-01-31' })).toEqual({
      period: 'custom',
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      machines: 'm1,m2',
      products: 'p1',
    });
  });

  it('give the inventory its tab and no period, and a schedule its relative period', () => {
    expect(paramsOf('inventory', DEFAULT_REPORT_FILTERS)).toEqual({ tab: 'products' });
    expect(paramsOf('inventory', DEFAULT_REPORT_FILTERS, { tab: 'components' })).toEqual({ tab: 'components' });
    expect(paramsOf('inventory', DEFAULT_REPORT_FILTERS, { tab: 'nonsense' })).toEqual({ tab: 'products' });
    expect(defaultParams('refill_log', true)).toEqual({ period: 'yesterday' });
    expect(defaultParams('inventory', true)).toEqual({ tab: 'products' });
    expect(paramsOf('encashment', { ...DEFAULT_REPORT_FILTERS, period: 'custom', date_from: '2026-01-01', date_to: '2026-01-02' }, { period: 'previous_week' })).toEqual({
      period: 'previous_week',
    });
  });

  it('read back into the filter bar’s state', () => {
    const params = paramsOf('refill_log', { ...DEFAULT_REPORT_FILTERS, period: 'previous_month', machines: ['m1'], locations: ['l1'] });
    const filters = filtersOf(params);
    expect(filters.period).toBe('previous_month');
    expect(filters.machines).toEqual(['m1']);
    expect(paramsOf('refill_log', filters)).toEqual(params);
  });

  it('say what is wrong with a custom period', () => {
    expect(paramsProblem('encashment', { period: 'custom' })).toBe('missingDates');
    expect(paramsProblem('encashment', { period: 'custom', date_from: '2026-02-01', date_to: '2026-01-01' })).toBe('datesReversed');
    expect(paramsProblem('encashment', { period: 'custom', date_from: '2026-01-01', date_to: '2026-02-01' })).toBeNull();
    expect(paramsProblem('inventory', { period: 'custom' })).toBeNull();
    expect(paramsProblem('', {})).toBeNull();
  });
});

describe('a module’s columns', () => {
  it('keeps the chosen columns in the server’s order', () => {
    expect(inServerOrder(['b', 'a'], [{ key: 'a' }, { key: 'b' }, { key: 'c' }])).toEqual(['a', 'b']);
  });
});
