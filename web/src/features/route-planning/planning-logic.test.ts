import { afterEach, describe, expect, it } from 'vitest';
import { problemsOf } from '../../components/form/rules';
import type { Plan, PlanningSettings, PlanningSignals } from '../../api/types';
import {
  defaultVisitDate,
  EMPTY_OPTIONS,
  generateBody,
  isDay,
  machinesNeedingVisit,
  mergeSelection,
  optionProblems,
  routeLine,
  saveBody,
  signalChips,
} from './planning-logic';
import { settingsSchema, toSettingsBody, valuesFromSettings } from './settings-values';

const zone = process.env.TZ;

/** Runs `check` with the process in another time zone (Node reads `TZ` again when it changes). */
function inZone(timeZone: string, check: () => void) {
  process.env.TZ = timeZone;
  try {
    check();
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
}

afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('the default visit date', () => {
  it('is tomorrow, at any hour of the day, midnight included', () => {
    expect(defaultVisitDate(new Date(2026, 10, 23, 0, 0, 0, 0))).toBe('2026-11-24');
    expect(defaultVisitDate(new Date(2026, 10, 23, 0, 0, 0, 1))).toBe('2026-11-24');
    expect(defaultVisitDate(new Date(2026, 10, 23, 12, 0))).toBe('2026-11-24');
    expect(defaultVisitDate(new Date(2026, 10, 23, 23, 59, 59, 999))).toBe('2026-11-24');
    expect(defaultVisitDate(new Date(2026, 10, 24, 0, 0, 0, 0))).toBe('2026-11-25');
  });

  it('crosses month and year ends, and February in leap years', () => {
    expect(defaultVisitDate(new Date(2026, 0, 31, 23, 59))).toBe('2026-02-01');
    expect(defaultVisitDate(new Date(2026, 1, 28, 8, 0))).toBe('2026-03-01');
    expect(defaultVisitDate(new Date(2028, 1, 28, 8, 0))).toBe('2028-02-29');
    expect(defaultVisitDate(new Date(2028, 1, 29, 23, 59))).toBe('2028-03-01');
    expect(defaultVisitDate(new Date(2026, 3, 30, 0, 0))).toBe('2026-05-01');
    expect(defaultVisitDate(new Date(2026, 11, 31, 0, 0))).toBe('2027-01-01');
    expect(defaultVisitDate(new Date(2026, 11, 31, 23, 59, 59))).toBe('2027-01-01');
  });

  it('follows the browser’s calendar, not UTC’s', () => {
    // 23:30 UTC on 23 November: already the 24th in Paris, still the 23rd in Los Angeles.
    const instant = new Date('2026-11-23T23:30:00Z');
    inZone('Europe/Paris', () => expect(defaultVisitDate(instant)).toBe('2026-11-25'));
    inZone('America/Los_Angeles', () => expect(defaultVisitDate(instant)).toBe('2026-11-24'));
    // Just after midnight in Tokyo on New Year's Eve is still 30 December in UTC.
    inZone('Asia/Tokyo', () => expect(defaultVisitDate(new Date('2026-12-30T15:05:00Z'))).toBe('2027-01-01'));
    inZone('UTC', () => expect(defaultVisitDate(new Date('2026-12-30T15:05:00Z'))).toBe('2026-12-31'));
  });

  it('is not moved by a daylight-saving change at midnight', () => {
    // Santiago de Chile skips from 00:00 to 01:00 on 6 September 2026.
    inZone('America/Santiago', () => {
      expect(defaultVisitDate(new Date(2026, 8, 5, 23, 30))).toBe('2026-09-06');
      expect(defaultVisitDate(new Date(2026, 8, 6, 1, 0))).toBe('2026-09-07');
    });
    inZone('Europe/Paris', () => expect(defaultVisitDate(new Date(2026, 2, 28, 23, 59))).toBe('2026-03-29'));
  });

  it('accepts only real days from the address', () => {
    expect(isDay('2026-11-24')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('24/11/2026')).toBe(false);
    expect(isDay('')).toBe(false);
  });
});

const signals: PlanningSignals = {
  sold_out: 0,
  low: 0,
  empty_at_visit: 0,
  expiring: 0,
  min_days_to_empty: null,
  min_days_to_low: null,
  cash_box_minor: null,
  auto_collect_minor: 10_000,
  cash_due: false,
  last_reading_at: null,
  last_reading_hours: null,
  held_audits: 0,
};

describe('the ranked list', () => {
  it('says why a machine needs a visit, with the count of selections of each signal', () => {
    expect(signalChips({ signals })).toEqual([]);
    const chips = signalChips({ signals: { ...signals, sold_out: 2, low: 3, expiring: 1, held_audits: 1, cash_box_minor: 12_000, cash_due: true, min_days_to_empty: 1.5 } });
    expect(chips.map((chip) => chip.key)).toEqual(['soldOut', 'low', 'expiring', 'heldAudits', 'cashCollect', 'daysToEmpty']);
    expect(chips[0]).toEqual({ key: 'soldOut', count: 2, severity: 'error' });
    expect(chips[1]).toEqual({ key: 'low', count: 3, severity: 'warning' });
    // The server says whether the cash is due (never while the collection amount is 0).
    expect(signalChips({ signals: { ...signals, cash_box_minor: 12_000, cash_due: false } })).toEqual([]);
    expect(signalChips({ signals: { ...signals, sold_out: 1, min_days_to_empty: 0 } }).map((chip) => chip.key)).toEqual(['soldOut']);
  });

  it('selects every machine needing a visit from the map, all pages at once', () => {
    const pin = (id: string, need: 'now' | 'soon' | 'later') => ({ id, name: id, latitude: 45, longitude: 9, need, offline: false, units_to_bring: 0 });
    expect(machinesNeedingVisit([pin('a', 'later'), pin('b', 'now'), pin('c', 'soon')])).toEqual(['b', 'c']);
  });

  it('keeps the choices of other pages when this page’s checkboxes change', () => {
    const rows = [{ id: 'a' }, { id: 'b' }];
    expect(mergeSelection(['x', 'a'], { type: 'include', ids: new Set(['x', 'a', 'b']) }, rows)).toEqual(['x', 'a', 'b']);
    expect(mergeSelection(['x', 'a'], { type: 'include', ids: new Set(['x']) }, rows)).toEqual(['x']);
    // The header box: every row of this page.
    expect(mergeSelection(['x'], { type: 'exclude', ids: new Set() }, rows)).toEqual(['x', 'a', 'b']);
  });

});

const plan: Plan = {
  visit_date: '2026-11-24',
  routes: [
    {
      employee_id: 'u1',
      employee_name: 'Ann',
      stops: [
        { machine_id: 'm3', machine_name: 'C', latitude: 45.2, longitude: 9.2, arrival: '2026-11-24T07:00:00Z', departure: '2026-11-24T07:10:00Z', distance_m: 1200, units: 10 },
        { machine_id: 'm1', machine_name: 'A', latitude: 45.1, longitude: 9.1, arrival: '2026-11-24T07:30:00Z', departure: '2026-11-24T07:40:00Z', distance_m: 3400, units: 5 },
      ],
      distance_m: 9000,
      duration_s: 5400,
      start: '2026-11-24T06:30:00Z',
      end: '2026-11-24T08:00:00Z',
      units: 15,
    },
    { employee_id: 'u2', employee_name: 'Bo', stops: [], distance_m: 0, duration_s: 0, start: null, end: null, units: 0 },
  ],
  unassigned: [{ machine_id: 'm9', machine_name: 'I', reason: 'no_coordinates' }],
  picklist: [],
  totals: [],
};

describe('the plan', () => {
  it('is saved with each refiller’s machines in stop order, and no empty route', () => {
    expect(saveBody(plan, 'refill')).toEqual({ visit_date: '2026-11-24', route_type: 'refill', routes: [{ employee_id: 'u1', machine_ids: ['m3', 'm1'] }] });
    expect(saveBody(plan, 'cash_collection', '  Tuesday north ').name).toBe('Tuesday north');
  });

  it('draws each route from the depot through its stops and back', () => {
    expect(routeLine(plan.routes[0], { latitude: 45, longitude: 9 })).toEqual([
      [45, 9],
      [45.2, 9.2],
      [45.1, 9.1],
      [45, 9],
    ]);
    expect(routeLine(plan.routes[0], null)).toEqual([
      [45.2, 9.2],
      [45.1, 9.1],
    ]);
    expect(routeLine(plan.routes[1], { latitude: 45, longitude: 9 })).toEqual([]);
  });

  it('asks with the settings given for this plan only', () => {
    expect(generateBody('2026-11-24', ['m1'], ['u1'], EMPTY_OPTIONS)).toEqual({ visit_date: '2026-11-24', machine_ids: ['m1'], employee_ids: ['u1'] });
    expect(generateBody('2026-11-24', ['m1'], ['u1'], { van_capacity: '600', shift_start: '07:00', shift_end: '15:00', service_minutes: '12' })).toEqual({
      visit_date: '2026-11-24',
      machine_ids: ['m1'],
      employee_ids: ['u1'],
      van_capacity: 600,
      shift_start: '07:00',
      shift_end: '15:00',
      service_minutes: 12,
    });
    expect(optionProblems({ van_capacity: '0', shift_start: '7h', shift_end: '', service_minutes: '1.5' })).toEqual({ van_capacity: 'wholeNumber', shift_start: 'time', service_minutes: 'wholeNumber' });
    expect(optionProblems({ ...EMPTY_OPTIONS, shift_start: '15:00', shift_end: '07:00' })).toEqual({ shift_end: 'shiftOrder' });
  });
});

describe('the planning settings', () => {
  const settings: PlanningSettings = {
    low_share_pct: 25,
    expiry_days: 3,
    auto_collect_minor: 10_000,
    stale_hours: 24,
    velocity_days: 28,
    horizon_days: 2,
    van_capacity: 800,
    shift_start: '07:30',
    shift_end: '16:30',
    service_minutes: 10,
    road_factor: 1.3,
    speed_kmh: 40,
    depot_latitude: null,
    depot_longitude: null,
    version: 4,
  };

  it('round-trip through the form, the amount in minor units', () => {
    const values = valuesFromSettings(settings);
    expect(values.auto_collect).toBe('100.00');
    expect(problemsOf(settingsSchema, values)).toEqual({});
    expect(toSettingsBody(values, 4)).toEqual(settings);
    expect(toSettingsBody({ ...values, auto_collect: '75,5', road_factor: '1,25', depot_latitude: '45.1', depot_longitude: '9.2' }, 4)).toMatchObject({
      auto_collect_minor: 7550,
      road_factor: 1.25,
      depot_latitude: 45.1,
      depot_longitude: 9.2,
    });
  });

  it('refuse what cannot be a setting', () => {
    const problems = problemsOf(settingsSchema, { ...valuesFromSettings(settings), velocity_days: '100', depot_latitude: '45', shift_end: '07:00', low_share_pct: '' });
    expect(problems.velocity_days?.key).toBe('validation.range');
    expect(problems.depot_longitude?.key).toBe('validation.bothCoordinates');
    expect(problems.shift_end?.key).toBe('routePlanning.problems.shiftOrder');
    expect(problems.low_share_pct?.key).toBe('validation.required');
  });
});
