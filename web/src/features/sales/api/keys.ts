import type { Query } from '../../../api/client';
import type { ListParams } from '../../../components/server-list/use-list-state';

/** The sales overview's replies, by endpoint and filters (the report's API parameters). */
export const salesKeys = {
  all: ['sales'] as const,
  totals: (query: Query) => ['sales', 'totals', query] as const,
  header: (query: Query, language: string) => ['sales', 'header', query, language] as const,
  detail: (query: Query, list: ListParams) => ['sales', 'detail', query, list] as const,
  line: (query: Query) => ['sales', 'line', query] as const,
  bars: (query: Query) => ['sales', 'bars', query] as const,
};
