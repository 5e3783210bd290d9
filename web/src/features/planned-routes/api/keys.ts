export interface RouteListParams {
  page: number;
  page_size: number;
  search: string;
  status: string;
  employee: string;
  date_from: string;
  date_to: string;
}

export const routeKeys = {
  all: ['planned-routes'] as const,
  list: (params: RouteListParams) => ['planned-routes', 'list', params] as const,
  detail: (id: string) => ['planned-routes', 'detail', id] as const,
  /** Everything read about one route (its stops, picklist, reports): a change refreshes them all. */
  of: (id: string) => ['planned-routes', 'route', id] as const,
  part: (id: string, part: string) => ['planned-routes', 'route', id, part] as const,
  /** The same entries as the other screens' pickers. */
  employees: ['filters', 'employees'] as const,
};
