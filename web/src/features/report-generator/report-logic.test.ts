import { describe, expect, it } from 'vitest';
import { DEFAULT_REPORT_FILTERS, SALES_CONTROLS } from '../../components/report-filters/report-filter-state';
import { ENCASHMENT_CONTROLS } from '../encashment/api/encashment';
import { INVENTORY_CONTROLS } from '../inventory/api/inventory';
import { REFILL_CONTROLS, REFILL_SINGLE } from '../refill-log/api/refill-log';
import { TRANSACTION_CONTROLS } from '../transaction-log/api/transaction-log';
import type { Report, Template } from './api/types';
import {
  defaultParams,
  filtersOf,
  MODULE_CONTROLS,
  MODULE_SINGLE,
  paramsOf,
  paramsProblem,
  pollInterval,
  downloadRefusal,
  reportActions,
  templateActions,
  toGenerateInput,
  toTemplateInput,
  valuesFromTemplate,
  inServerOrder,
  type GeneratorPart,
  type ReportFormValues,
} from './report-logic';

const grant = (...parts: GeneratorPart[]) => (part: GeneratorPart) => parts.includes(part);

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

describe('the reports list', () => {
  it('polls every 2 s while a report is queued or running, and stops once none is', () => {
    expect(pollInterval(undefined)).toBe(false);
    expect(pollInterval([])).toBe(false);
    expect(pollInterval([{ status: 'done' }, { status: 'failed' }])).toBe(false);
    expect(pollInterval([{ status: 'done' }, { status: 'running' }])).toBe(2000);
    expect(pollInterval([{ status: 'queued' }])).toBe(2000);
  });

  it('offers a report’s file once done, archive when finished, restore when archived, delete with its key', () => {
    const running: Pick<Report, 'status' | 'archived'> = { status: 'running', archived: false };
    const done: Pick<Report, 'status' | 'archived'> = { status: 'done', archived: false };
    expect(reportActions(grant(), running)).toEqual({ download: false, archive: false, restore: false, delete: false });
    expect(reportActions(grant('delete_report'), done)).toEqual({ download: true, archive: true, restore: false, delete: true });
    expect(reportActions(grant(), { status: 'failed', archived: true })).toEqual({ download: false, archive: false, restore: true, delete: false });
  });

  it('refuses the download of a finished report beyond the caller’s access, with the server’s reason', () => {
    const fallback = 'Not available';
    expect(downloadRefusal({ status: 'done', available: true, unavailable_reason: null }, fallback)).toBeNull();
    expect(downloadRefusal({ status: 'done', available: false, unavailable_reason: 'It covers 3 machines you no longer see.' }, fallback)).toBe(
      'It covers 3 machines you no longer see.',
    );
    expect(downloadRefusal({ status: 'done', available: false, unavailable_reason: null }, fallback)).toBe(fallback);
    // Nothing to download yet: nothing to refuse.
    expect(downloadRefusal({ status: 'running', available: false, unavailable_reason: null }, fallback)).toBeNull();
  });

  it('offers a template’s run, edit and delete each with its key, edit and delete only on the caller’s own, copy on others’', () => {
    const mine = { editable: true, copyable: true };
    const theirs = { editable: false, copyable: true };
    expect(templateActions(grant('templates_list'), mine)).toEqual({ run: false, edit: false, delete: false, copy: false });
    expect(templateActions(grant('run', 'edit_template', 'delete_template'), mine)).toEqual({ run: true, edit: true, delete: true, copy: false });
    expect(templateActions(grant('run', 'edit_template', 'delete_template'), theirs)).toEqual({ run: true, edit: false, delete: false, copy: true });
    expect(templateActions(grant('edit_template'), mine)).toEqual({ run: false, edit: true, delete: false, copy: false });
    // Copying needs the server's word (the `new` key): without it, nothing to change.
    expect(templateActions(grant('run'), { editable: false, copyable: false })).toEqual({ run: true, edit: false, delete: false, copy: false });
  });
});

describe('the form’s request bodies', () => {
  const values: ReportFormValues = {
    name: '  Monthly cash  ',
    module: 'encashment',
    params: { period: 'previous_month', machines: 'm1' },
    format: 'csv',
    graph: 'bar',
    columns: ['date', 'machine'],
    visibility: 'public',
  };

  it('trims the name and sends a chart only for the sales overview', () => {
    expect(toGenerateInput(values)).toEqual({
      name: 'Monthly cash',
      module: 'encashment',
      params: { period: 'previous_month', machines: 'm1' },
      format: 'csv',
      graph: 'none',
      columns: ['date', 'machine'],
      visibility: 'public',
    });
    expect(toGenerateInput({ ...values, module: 'sales_overview' }).graph).toBe('bar');
  });

  it('adds the version read to an update, and reads a template back into the form', () => {
    expect(toTemplateInput(values)).not.toHaveProperty('version');
    expect(toTemplateInput(values, 4).version).toBe(4);
    const template: Template = {
      ...toGenerateInput(values),
      id: 't1',
      created_by: { id: 'u1', name: 'Ann' },
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      version: 4,
      editable: true,
      copyable: true,
    };
    expect(valuesFromTemplate(template)).toEqual({ ...values, name: 'Monthly cash', graph: 'none' });
  });

  it('keeps the chosen columns in the server’s order', () => {
    expect(inServerOrder(['b', 'a'], [{ key: 'a' }, { key: 'b' }, { key: 'c' }])).toEqual(['a', 'b']);
  });

  it('refuses a definition without a module', () => {
    expect(() => toGenerateInput({ ...values, module: '' })).toThrow();
  });
});
