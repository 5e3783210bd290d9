import { describe, expect, it } from 'vitest';
import { problemsOf } from '../../components/form/rules';
import { readAccuracy, readStocks, readStopPicklists, readValueTotals, routeActions, statusMoves, toFillBody, visitSchema, visitValues } from './route-logic';

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

describe('replies whose shape the contract leaves open', () => {
  const line = { selection: 'A1', product_id: 'p1', product_name: 'Cookies', to_bring: 4, to_bring_value_minor: 600, filled_value_minor: 300 };

  it('read stops with lines, or flat lines with their machine', () => {
    expect(readStopPicklists([{ machine_id: 'm1', lines: [line] }])).toEqual([{ machine_id: 'm1', lines: [line] }]);
    expect(readStopPicklists({ stops: [{ machine_id: 'm1', lines: [line] }] })[0].lines).toEqual([line]);
    expect(readStopPicklists([{ ...line, machine_id: 'm1' }, { ...line, selection: 'A2', machine_id: 'm1' }, { ...line, machine_id: 'm2' }]).map((stop) => [stop.machine_id, stop.lines.length])).toEqual([
      ['m1', 2],
      ['m2', 1],
    ]);
  });

  it('take the server’s money totals, else add the lines up', () => {
    const stopsOf = readStopPicklists([{ machine_id: 'm1', lines: [line, line] }]);
    expect(readValueTotals([], stopsOf, 'EUR')).toEqual({ to_bring_value_minor: 1200, filled_value_minor: 600, currency: 'EUR' });
    expect(readValueTotals({ totals: { to_bring_value_minor: 5, filled_value_minor: 6, currency: 'CHF' } }, stopsOf, 'EUR')).toEqual({ to_bring_value_minor: 5, filled_value_minor: 6, currency: 'CHF' });
  });

  it('read the stock per product and component, returned being loaded − filled when absent', () => {
    const stocks = readStocks({ products: [{ product_id: 'p1', product_name: 'Cookies', loaded: 24, filled: 20, removed: 1 }], components: [{ component_id: 'c1', name: 'Cup', loaded: 10, filled: 10, removed: 0, returned: 0 }] });
    expect(stocks.products).toEqual([{ id: 'p1', name: 'Cookies', loaded: 24, filled: 20, removed: 1, returned: 4, unit: undefined }]);
    expect(stocks.components[0].id).toBe('c1');
    expect(readStocks([{ product_id: 'p1', product_name: 'Cookies', loaded: 1, filled: 1, removed: 0, returned: 0 }]).products).toHaveLength(1);
  });

  it('read the accuracy from flat or per-machine lines', () => {
    expect(readAccuracy({ accuracy: null, lines: [] })).toEqual({ accuracy: null, lines: [] });
    const nested = readAccuracy({ accuracy: 0.8, machines: [{ machine_id: 'm1', machine_name: 'Lobby', products: [{ product_id: 'p1', product_name: 'Cookies', predicted: 5, actual: 4, filled: 4, error: 1, abs_error: 1 }] }] });
    expect(nested.accuracy).toBe(0.8);
    expect(nested.lines[0]).toMatchObject({ machine_name: 'Lobby', product_name: 'Cookies', predicted: 5, actual: 4, abs_error: 1 });
  });
});

describe('the visit form', () => {
  const lines = [
    { selection: 'A1', product_id: 'p1', product_name: 'Cookies', current: 5, max: 20, predicted_at_visit: 3, to_bring: 17, case_size: null, components: [], found: null, filled: null, removed: null, removed_reason: null },
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
