export interface UserListParams {
  page: number;
  page_size: number;
  search: string;
  ordering: string;
  role: string;
  status: '' | 'active' | 'inactive';
}

export interface RoleListParams {
  page: number;
  page_size: number;
  search: string;
  ordering: string;
}

export const userKeys = {
  all: ['users'] as const,
  list: (params: UserListParams) => ['users', 'list', params] as const,
  detail: (id: string) => ['users', 'detail', id] as const,
};

export const roleKeys = {
  all: ['roles'] as const,
  list: (params: RoleListParams) => ['roles', 'list', params] as const,
  detail: (id: string) => ['roles', 'detail', id] as const,
};

export const filterKeys = {
  all: ['filters'] as const,
  roles: ['filters', 'roles'] as const,
  modules: (language: string) => ['filters', 'modules', language] as const,
  positions: ['filters', 'positions'] as const,
  scope: (kind: string) => ['filters', 'scope', kind] as const,
};
