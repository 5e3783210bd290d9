// The van's loading list as the phone shows and ticks it (issue 30). The server counts the units,
// cases and loose units; the phone splits a stop's picklist line the same way and works out what
// a tick means for each route of a day's list.
import type { LoadingList } from './my-day-data';

/** Units as whole cases of `caseSize` and loose units (without a case size all loose). */
export function casesAndLoose(units: number, caseSize: number | null): { cases: number; loose: number } {
  if (!caseSize || caseSize <= 0) return { cases: 0, loose: units };
  return { cases: Math.floor(units / caseSize), loose: units % caseSize };
}

/** A product counts as loaded once every unit of it is. */
export function isLoaded(product: { units: number; loaded: number }): boolean {
  return product.units > 0 && product.loaded >= product.units;
}

/**
 * What ticking (or unticking) a product saves on each route of the list: the units of it in the
 * route's totes, or 0. Routes without the product are left out.
 */
export function loadingChanges(list: LoadingList, productId: string, ticked: boolean): { routeId: string; lines: { product_id: string; loaded: number }[] }[] {
  const units = new Map<string, number>();
  for (const stop of list.stops) {
    for (const item of stop.tote) {
      if (item.product_id === productId) units.set(stop.route_id, (units.get(stop.route_id) ?? 0) + item.units);
    }
  }
  return [...units].filter(([, count]) => count > 0).map(([routeId, count]) => ({ routeId, lines: [{ product_id: productId, loaded: ticked ? count : 0 }] }));
}
