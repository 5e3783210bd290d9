import { describe, expect, it } from 'vitest';
import { casesAndLoose, isLoaded, loadingChanges } from './loading-logic';
import type { LoadingList } from './my-day-data';

describe('casesAndLoose', () => {
  it('splits units into whole cases and loose units', () => {
    expect(casesAndLoose(27, 12)).toEqual({ cases: 2, loose: 3 });
    expect(casesAndLoose(24, 12)).toEqual({ cases: 2, loose: 0 });
    expect(casesAndLoose(5, 12)).toEqual({ cases: 0, loose: 5 });
  });
  it('without a case size everything is loose', () => {
    expect(casesAndLoose(7, null)).toEqual({ cases: 0, loose: 7 });
    expect(casesAndLoose(7, 0)).toEqual({ cases: 0, loose: 7 });
  });
});

describe('isLoaded', () => {
  it('once every unit is loaded', () => {
    expect(isLoaded({ units: 10, loaded: 10 })).toBe(true);
    expect(isLoaded({ units: 10, loaded: 9 })).toBe(false);
    expect(isLoaded({ units: 0, loaded: 0 })).toBe(false);
  });
});

describe('loadingChanges', () => {
  const list: LoadingList = {
    date: '2026-11-26',
    routes: [
      { id: 'r1', name: 'North', employee_id: 'u1', employee_name: 'Ann', visit_date: '2026-11-26', version: 1 },
      { id: 'r2', name: 'South', employee_id: 'u2', employee_name: 'Bob', visit_date: '2026-11-26', version: 3 },
    ],
    products: [],
    stops: [
      { route_id: 'r1', route_name: 'North', order: 1, machine_id: 'm1', machine_name: 'M1', location_name: null, tote: [{ product_id: 'p1', product_name: 'Cola', units: 6 }] },
      { route_id: 'r1', route_name: 'North', order: 2, machine_id: 'm2', machine_name: 'M2', location_name: null, tote: [{ product_id: 'p1', product_name: 'Cola', units: 4 }, { product_id: 'p2', product_name: 'Chips', units: 3 }] },
      { route_id: 'r2', route_name: 'South', order: 1, machine_id: 'm3', machine_name: 'M3', location_name: null, tote: [{ product_id: 'p1', product_name: 'Cola', units: 5 }] },
    ],
  };
  it('a tick loads each route with its totes’ units of the product', () => {
    expect(loadingChanges(list, 'p1', true)).toEqual([
      { routeId: 'r1', lines: [{ product_id: 'p1', loaded: 10 }] },
      { routeId: 'r2', lines: [{ product_id: 'p1', loaded: 5 }] },
    ]);
  });
  it('an untick sets them back to 0, and routes without the product are left alone', () => {
    expect(loadingChanges(list, 'p2', false)).toEqual([{ routeId: 'r1', lines: [{ product_id: 'p2', loaded: 0 }] }]);
  });
});
