export interface ListParams {
  page: number;
  page_size: number;
  search: string;
  ordering: string;
}

export type ClientListParams = ListParams;

export interface LocationListParams extends ListParams {
  client: string;
  type: string;
  region: string;
}

export interface ModelListParams extends ListParams {
  type: string;
  manufacturer: string;
}

export const clientKeys = {
  all: ['clients'] as const,
  list: (params: ClientListParams) => ['clients', 'list', params] as const,
  detail: (id: string) => ['clients', 'detail', id] as const,
};

export const locationKeys = {
  all: ['locations'] as const,
  list: (params: LocationListParams) => ['locations', 'list', params] as const,
  detail: (id: string) => ['locations', 'detail', id] as const,
};

export const modelKeys = {
  all: ['models'] as const,
  list: (params: ModelListParams) => ['models', 'list', params] as const,
  detail: (id: string) => ['models', 'detail', id] as const,
};

/** Filter lists live under `filters` so every screen using them (the user form too) refreshes together. */
export const fleetFilterKeys = {
  all: ['filters'] as const,
  locationTypes: ['filters', 'locations', 'types'] as const,
  timeZones: ['filters', 'timezones'] as const,
  modelTypes: ['filters', 'models', 'types'] as const,
  manufacturers: ['filters', 'models', 'manufacturers'] as const,
};
