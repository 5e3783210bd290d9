import { describe, expect, it } from 'vitest';
import { problemsOf } from '../../components/form/rules';
import type { PicklistLine } from '../../api/types';
import { accuracyRows, routeActions, statusMoves, toFillBody, visitSchema, visitValues } from './route-logic';

const can = (...keys: string[]) => (key: string) => keys.includes(key);

describe('status moves', () => {
  it('follow the contract: planned → in progress → done, cancel before done, nothing out of a final status', () => {
    expect(statusMoves('planned')).toEqual(['start', 'cancel']);
    expect(statusMoves('in_progress')).toEqual(['finish', 'cancel']);
    for (const status of ['done', 'cancelled', 'expired'] as const) expect(statusMoves(status)).toEqual([]);
  });

  it('show each action with its key, and the visit form to the route’s employee', () => {
    const route = { status: 'planned' as const, employee_id: 'u1' };
    expect(routeActions(can('planning.planned_routes.list'), route, 'u1')).toEqual({ moves: [], changeEmployee: false, delete: false, export: false, removeStop: false, bookVisit: false });
    expect(routeActions(can('settings.machines.edit_quantity_expiry'), route, 'u1').bookVisit).toBe(true);
    expect(routeActions(can('settings.machines.edit_quantity_expiry'), route, 'u2').bookVisit).toBe(false);
    expect(routeActions(can('settings.machines.edit_quantity_expiry', 'planning.planned_routes.edit'), route, 'u2').bookVisit).toBe(true);
    const all = can(...['edit', 'delete', 'export', 'change_employee'].map((part) => `planning.planned_routes.${part}`), 'settings.machines.edit_quantity_expiry');
    expect(routeActions(all, route, 'u1')).toEqual({ moves: ['start', 'cancel'], changeEmployee: true, delete: true, export: true, removeStop: true, bookVisit: true });
    // In progress: no deletion; done: nothing changes but the export.
    expect(routeActions(all, { ...route, status: 'in_progress' }, 'u1').delete).toBe(false);
    expect(routeActions(all, { ...route, status: 'done' }, 'u1')).toEqual({ moves: [], changeEmployee: false, delete: false, export: true, removeStop: false, bookVisit: false });
  });
});

describe('the accuracy', () => {
  it('gives each line an id of its own, a product in two selections of a machine included', () => {
    const line = { machine_id: 'm1', machine_name: 'Lobby', product_id: 'p1', product_name: 'Cookies', predicted: 5, actual: 4, filled: 4, error: 1, abs_error: 1 };
    const rows = accuracyRows([line, { ...line, predicted: 2 }]);
    expect(rows.map((row) => row.id)).toEqual(['m1:p1:0', 'm1:p1:1']);
    expect(rows[1]).toMatchObject({ machine_name: 'Lobby', product_name: 'Cookies', predicted: 2, actual: 4, abs_error: 1 });
  });
});

describe('the visit form', () => {
  const lines: PicklistLine[] = [
    { selection: 'A1', product_id: 'p1', product_name: 'Cookies', current: 5, max: 20, velocity: 1.5, predicted_at_visit: 3, need: 17, to_bring: 17, case_size: null, components: [], found: null, filled: null, removed: null, removed_reason: null },
  ];

  it('checks whole numbers, found within max, a reason for removals and the amount’s decimals', () => {
    const values = visitValues(lines);
    expect(problemsOf(visitSchema(2), values)).toEqual({});
    const bad = problemsOf(visitSchema(2), { ...values, lines: [{ ...values.lines[0], found: '21', removed: '1' }], collected: '1.234' });
    expect(bad['lines.0.found']?.key).toBe('validation.currentAboveMax');
    expect(bad['lines.0.removed_reason']?.key).toBe('plannedRoutes.visitForm.reasonRequired');
    expect(bad.collected?.key).toBe('validation.amountDecimals');
    expect(problemsOf(visitSchema(2), { ...values, lines: [{ ...values.lines[0], found: '1', filled: '1', removed: '3', removed_reason: 'damaged' }] })['lines.0.removed']?.key).toBe(
      'plannedRoutes.visitForm.removedTooMany',
    );
    expect(problemsOf(visitSchema(0), { ...values, collected: '12' })).toEqual({});
    expect(problemsOf(visitSchema(2), { ...values, lines: [{ ...values.lines[0], found: '5', filled: '17' }] })['lines.0.filled']?.key).toBe('validation.currentAboveMax');
  });

  it('starts from whole units found and fills to par, the case surplus staying in the van', () => {
    const [line] = visitValues([{ ...lines[0], predicted_at_visit: 3.6, to_bring: 18, case_size: 6 }]).lines;
    expect([line.found, line.filled]).toEqual(['3', '17']);
  });

  it('sends numbers, the reason only with something removed, and the cash only when given', () => {
    const values = visitValues(lines);
    expect(toFillBody(values, { routeId: 'r1', machineId: 'm1', requestId: 'q1' }, 2)).toEqual({
      route_id: 'r1',
      machine_id: 'm1',
      request_id: 'q1',
      lines: [{ selection: 'A1', found: 3, filled: 17, removed: 0 }],
    });
    expect(toFillBody({ ...values, cash_bag: ' 7 ', collected: '0,05' }, { routeId: 'r1', machineId: 'm1', requestId: 'q1' }, 2)).toMatchObject({ cash_bag: '7', collected_minor: 5 });
  });
});
