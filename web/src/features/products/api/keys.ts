export interface ProductListParams {
  page: number;
  page_size: number;
  search: string;
  ordering: string;
  tag: string;
  /** '' (all), 'true' or 'false'. */
  inactive: string;
}

export interface SimpleListParams {
  page: number;
  page_size: number;
  search: string;
  ordering: string;
}

export const productKeys = {
  all: ['products'] as const,
  list: (composite: boolean, params: ProductListParams) => ['products', composite ? 'composites' : 'list', params] as const,
  detail: (id: string) => ['products', 'detail', id] as const,
  recipe: (id: string) => ['products', 'recipe', id] as const,
  components: (params: SimpleListParams) => ['products', 'components', params] as const,
  tags: (params: SimpleListParams) => ['products', 'tags', params] as const,
};

export const productFilterKeys = {
  all: ['filters'] as const,
  components: ['filters', 'products', 'components'] as const,
};
