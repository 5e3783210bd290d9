import { describe, expect, it } from 'vitest';
import type { Report, ReportTemplate } from '../../api/types';
import {
  pollInterval,
  downloadRefusal,
  reportActions,
  templateActions,
  toGenerateInput,
  toTemplateInput,
  valuesFromTemplate,
  type GeneratorPart,
  type ReportFormValues,
} from './report-logic';

const grant = (...parts: GeneratorPart[]) => (part: GeneratorPart) => parts.includes(part);

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
    const template: ReportTemplate = {
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

  it('refuses a definition without a module', () => {
    expect(() => toGenerateInput({ ...values, module: '' })).toThrow();
  });
});
