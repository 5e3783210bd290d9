import type { NeedFilter } from '../planning-logic';

export interface RankedListParams {
  visit_date: string;
  need: NeedFilter;
  search: string;
  page: number;
  page_size: number;
}

export const planningKeys = {
  all: ['route-planning'] as const,
  list: (params: RankedListParams) => ['route-planning', 'list', params] as const,
  map: (visitDate: string) => ['route-planning', 'map', visitDate] as const,
  products: (machineId: string, visitDate: string) => ['route-planning', 'products', machineId, visitDate] as const,
  cash: (machineId: string) => ['route-planning', 'machine-cash', machineId] as const,
  settings: ['route-planning', 'settings'] as const,
  /** Active users who may drive a route. */
  refillers: (source: 'users' | 'employees') => ['route-planning', 'refillers', source] as const,
  /** The planned routes' lists: a save adds to them. */
  plannedRoutes: ['planned-routes'] as const,
};
