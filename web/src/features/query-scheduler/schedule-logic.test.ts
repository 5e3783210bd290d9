import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { problemsOf } from '../../components/form/rules';
import type { ReportTemplate } from '../../api/types';
import { cronExpression, cronOfPreset, describeCron, formatInZone, parseTime, presetOf, timeText } from './cron-logic';
import { ApiError } from '../../api/client';
import {
  cleanEmails,
  emptyScheduleValues,
  joinScheduleErrors,
  mailAllowed,
  refusalReason,
  scheduleSchema,
  shortestGapMinutes,
  splitEmails,
  taskActions,
  toTaskInput,
  withTemplate,
  type ScheduleFormValues,
} from './schedule-logic';

const cron = (minute: string, hour: string, day_of_month: string, month: string, day_of_week: string) => ({ minute, hour, day_of_month, month, day_of_week });

describe('cron presets', () => {
  it('write the five fields', () => {
    expect(cronOfPreset({ kind: 'daily', hour: 7, minute: 0 })).toEqual(cron('0', '7', '*', '*', '*'));
    expect(cronOfPreset({ kind: 'weekly', weekday: 1, hour: 8, minute: 30 })).toEqual(cron('30', '8', '*', '*', '1'));
    expect(cronOfPreset({ kind: 'monthly', hour: 6, minute: 15 })).toEqual(cron('15', '6', '1', '*', '*'));
  });

  it('are read back from the fields, and anything else is custom', () => {
    expect(presetOf(cron('0', '7', '*', '*', '*'))).toEqual({ kind: 'daily', hour: 7, minute: 0 });
    expect(presetOf(cron('30', '08', '*', '*', 'MON'))).toEqual({ kind: 'weekly', weekday: 1, hour: 8, minute: 30 });
    expect(presetOf(cron('0', '9', '*', '*', '7'))).toEqual({ kind: 'weekly', weekday: 0, hour: 9, minute: 0 });
    expect(presetOf(cron('15', '6', '1', '*', '*'))).toEqual({ kind: 'monthly', hour: 6, minute: 15 });
    for (const fields of [
      cron('*/15', '7', '*', '*', '*'),
      cron('0', '7-9', '*', '*', '*'),
      cron('0', '7', '*', '1', '*'),
      cron('0', '7', '15', '*', '*'),
      cron('0', '7', '*', '*', '1-5'),
      cron('0', '7', '1', '*', '1'),
      cron('60', '7', '*', '*', '*'),
      cron('0', '24', '*', '*', '*'),
    ]) {
      expect(presetOf(fields), cronExpression(fields)).toEqual({ kind: 'custom' });
    }
  });

  it('round-trip through their fields', () => {
    for (const preset of [
      { kind: 'daily', hour: 23, minute: 59 },
      { kind: 'weekly', weekday: 0, hour: 0, minute: 0 },
      { kind: 'weekly', weekday: 6, hour: 12, minute: 5 },
      { kind: 'monthly', hour: 1, minute: 1 },
    ] as const) {
      expect(presetOf(cronOfPreset(preset))).toEqual(preset);
    }
  });

  it('take their time from a time input', () => {
    expect(timeText(7, 5)).toBe('07:05');
    expect(parseTime('07:05')).toEqual({ hour: 7, minute: 5 });
    expect(parseTime('24:00')).toBeNull();
    expect(parseTime('')).toBeNull();
  });
});

describe('the schedule in words', () => {
  it('speaks the user’s language', () => {
    const mondays = cron('30', '8', '*', '*', '1');
    expect(describeCron(mondays, 'en')).toBe('At 08:30, only on Monday');
    expect(describeCron(cron('0', '7', '*', '*', '*'), 'en')).toBe('Every day at 07:00');
    expect(describeCron(cron('5', '18', '*', '*', '*'), 'fr')).toBe('Tous les jours à 18:05');
    expect(describeCron(mondays, 'fr')).toBe('À 08:30, uniquement le lundi');
    expect(describeCron(mondays, 'it')).toBe('Alle 08:30, solo il lunedì');
    expect(describeCron(cron('0', '7', '1', '*', '*'), 'en-GB')).toBe('At 07:00, on day 1 of the month');
  });

  it('says nothing for fields that are not cron', () => {
    expect(describeCron(cron('61', '7', '*', '*', '*'), 'en')).toBeNull();
    expect(describeCron(cron('', '7', '*', '*', '*'), 'en')).toBeNull();
  });

  it('shows a run in the chosen zone', () => {
    expect(formatInZone('2026-03-02T06:00:00Z', 'Europe/Rome', 'en', 'short')).toBe('Mar 2, 2026, 7:00 AM');
    expect(formatInZone('2026-03-02T06:00:00Z', 'America/New_York', 'en', 'short')).toBe('Mar 2, 2026, 1:00 AM');
    expect(formatInZone('2026-03-02T06:00:00Z', 'Not/AZone', 'en', 'short')).toBe('Mar 2, 2026, 6:00 AM');
  });
});

describe('a scheduled query’s form', () => {
  const values: ScheduleFormValues = {
    ...emptyScheduleValues('encashment', 'Europe/Rome'),
    name: ' Daily cash ',
    graph: 'line',
    cron: cron(' 30', '8 ', '*', '*', '1'),
    recipients: { user_ids: ['e1'], emails: [' ops@example.com', 'OPS@example.com', 'boss@example.com'] },
  };

  it('builds the request body: trimmed, addresses once, no chart outside the sales overview, no template', () => {
    expect(toTaskInput(values)).toEqual({
      name: 'Daily cash',
      module: 'encashment',
      template_id: null,
      params: { period: 'yesterday' },
      format: 'xlsx',
      graph: 'none',
      columns: [],
      cron: cron('30', '8', '*', '*', '1'),
      time_zone: 'Europe/Rome',
      status: 'active',
      recipients: { user_ids: ['e1'], emails: ['ops@example.com', 'boss@example.com'] },
    });
    expect(toTaskInput(values, 3).version).toBe(3);
  });

  it('takes a template’s definition when one is chosen', () => {
    const template: ReportTemplate = {
      id: 't1',
      name: 'Weekly cash',
      module: 'encashment',
      params: { period: 'previous_week', machines: 'm1' },
      format: 'csv',
      graph: 'none',
      columns: ['date'],
      visibility: 'public',
      created_by: { id: 'u1', name: 'Ann' },
      created_at: '2026-11-20T10:00:00Z',
      updated_at: '2026-11-20T10:00:00Z',
      version: 1,
      editable: false,
      copyable: true,
    };
    const body = toTaskInput(withTemplate(values, template));
    expect(body).toMatchObject({ template_id: 't1', params: { period: 'previous_week', machines: 'm1' }, format: 'csv', columns: ['date'] });
    expect(withTemplate(withTemplate(values, template), null).template_id).toBe('');
  });

  it('needs a name, every cron field, a known zone and a recipient with a real address', () => {
    const problems = problemsOf(scheduleSchema(['Europe/Rome']), {
      ...values,
      name: ' ',
      cron: cron('0', '', '*', '*', '*'),
      time_zone: 'Mars/Base',
      recipients: { user_ids: [], emails: ['nope'] },
    });
    expect(problems.name?.key).toBe('validation.required');
    expect(problems['cron.hour']?.key).toBe('validation.required');
    expect(problems.time_zone?.key).toBe('validation.timeZone');
    expect(problems['recipients.emails.0']?.key).toBe('validation.email');
    const none = problemsOf(scheduleSchema(), { ...values, name: '', recipients: { user_ids: [], emails: [' '] } });
    expect(none.recipients?.key).toBe('queryScheduler.noRecipients');
    expect(none.name?.key).toBe('validation.required');
    expect(problemsOf(scheduleSchema(['Europe/Rome']), values)).toEqual({});
    expect(z.safeParse(scheduleSchema(), { ...values, recipients: { user_ids: [], emails: ['a@b.co'] } }).success).toBe(true);
  });

  it('splits typed addresses and keeps each once', () => {
    expect(splitEmails('a@b.co, c@d.co;e@f.co  g@h.co')).toEqual(['a@b.co', 'c@d.co', 'e@f.co', 'g@h.co']);
    expect(cleanEmails(['a@b.co', ' A@B.co ', '', 'c@d.co'])).toEqual(['a@b.co', 'c@d.co']);
  });

  it('shows each action of the list with its key', () => {
    const can = (...keys: string[]) => (key: string) => keys.includes(key);
    expect(taskActions(can('settings.query_scheduler.list'))).toEqual({ sendNow: false, pauseResume: false, edit: false, delete: false, create: false });
    expect(taskActions(can('settings.query_scheduler.edit', 'settings.query_scheduler.delete', 'settings.query_scheduler.new'))).toEqual({
      sendNow: true,
      pauseResume: true,
      edit: true,
      delete: true,
      create: true,
    });
  });
});

describe('the operator’s policy and the server’s refusals', () => {
  it('allows an address in a listed domain, or a subdomain of a `*.` one; none with no domain', () => {
    const domains = ['example.com', '*.example.org'];
    expect(mailAllowed(domains, 'Ops@Example.com')).toBe(true);
    expect(mailAllowed(domains, 'ops@sub.example.org')).toBe(true);
    expect(mailAllowed(domains, 'ops@example.org')).toBe(false);
    expect(mailAllowed(domains, 'ops@notexample.org')).toBe(false);
    expect(mailAllowed(domains, 'ops@sub.example.com')).toBe(false);
    expect(mailAllowed(domains, 'not an address')).toBe(false);
    expect(mailAllowed([], 'ops@example.com')).toBe(false);
  });

  it('measures the shortest gap between the next runs', () => {
    expect(shortestGapMinutes([])).toBeNull();
    expect(shortestGapMinutes(['2026-11-24T06:00:00Z'])).toBeNull();
    expect(shortestGapMinutes(['2026-11-24T07:00:00Z', '2026-11-24T06:00:00Z', '2026-11-24T06:05:00Z'])).toBe(5);
  });

  it('keeps every reason of a field in one message, and shows the server’s reason for a refused action', () => {
    const error = new ApiError(400, 'Invalid input', { 'recipients.emails': ['“a@x.net”: not allowed.', '“b@x.net”: not allowed.'], cron: ['Too often.'] });
    const joined = joinScheduleErrors(error) as ApiError;
    expect(joined.status).toBe(400);
    expect(joined.errors).toEqual({ 'recipients.emails': ['“a@x.net”: not allowed. “b@x.net”: not allowed.'], cron: ['Too often.'] });
    expect(joinScheduleErrors('boom')).toBe('boom');
    expect(refusalReason(new ApiError(409, 'The template this task follows was deleted.'))).toBe('The template this task follows was deleted.');
    expect(refusalReason(new ApiError(403, 'Only the task’s owner sends it'))).toBe('Only the task’s owner sends it');
    expect(refusalReason(new ApiError(500, 'Something went wrong'))).toBeNull();
    expect(refusalReason(new Error('network'))).toBeNull();
  });
});
