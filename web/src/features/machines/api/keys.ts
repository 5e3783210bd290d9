export interface MachineListParams {
  page: number;
  page_size: number;
  search: string;
  ordering: string;
  location: string;
  model: string;
  tag: string;
  status: '' | 'active' | 'inactive';
}

export interface RefillListParams {
  page: number;
  page_size: number;
  machine: string;
}

export const machineKeys = {
  all: ['machines'] as const,
  list: (params: MachineListParams) => ['machines', 'list', params] as const,
  detail: (id: string) => ['machines', 'detail', id] as const,
  overview: (id: string) => ['machines', 'overview', id] as const,
  products: (id: string) => ['machines', 'products', id] as const,
  audits: (id: string) => ['machines', 'audits', id] as const,
  anomalies: (id: string) => ['machines', 'anomalies', id] as const,
  tags: ['machines', 'tags'] as const,
};

export const refillKeys = {
  all: ['refills'] as const,
  list: (params: RefillListParams) => ['refills', 'list', params] as const,
};

/** Filter lists live under `filters`, shared with the user form's scope pickers where they overlap. */
export const machineFilterKeys = {
  all: ['filters'] as const,
  models: ['filters', 'models'] as const,
};
