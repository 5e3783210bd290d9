import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams, type SetURLSearchParams } from 'react-router';
import { PAGE_SIZES } from '../grid';

export const DEFAULT_PAGE_SIZE = 25;
const SEARCH_DELAY_MS = 300;

/** The paging, sorting and search parameters every list endpoint takes. */
export interface ListParams {
  page: number;
  page_size: number;
  search: string;
  ordering: string;
}

export interface ListState<F extends string = never> {
  /** What to send to the server (page is 1-based). */
  params: ListParams;
  /** The list's own filters, '' meaning "all". */
  filters: Record<F, string>;
  /** Search, ordering and filters without paging: what an export of the list on screen takes. */
  exportParams: Omit<ListParams, 'page' | 'page_size'> & Record<F, string>;
  /** What the search box shows (the URL gets it after a short pause). */
  searchInput: string;
  setSearch: (value: string) => void;
  setFilter: (name: F, value: string) => void;
  /** `page` is 1-based. */
  setPage: (page: number, pageSize: number) => void;
  setOrdering: (ordering: string) => void;
}

type Changes = Record<string, string | number | null>;

/** Applies changes to the query string: empty and default values leave it, so URLs stay short. */
export function withChanges(current: URLSearchParams, changes: Changes): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    const isDefault = value === null || value === '' || (key === 'page' && value === 1) || (key === 'page_size' && value === DEFAULT_PAGE_SIZE);
    if (isDefault) next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}

function positive(raw: string | null, fallback: number): number {
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Reads a list's state from the query string; whatever is missing or invalid takes its default. */
export function readListParams(query: URLSearchParams): ListParams {
  const pageSize = positive(query.get('page_size'), DEFAULT_PAGE_SIZE);
  return {
    page: positive(query.get('page'), 1),
    page_size: PAGE_SIZES.includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
    search: (query.get('search') ?? '').trim(),
    ordering: query.get('ordering') ?? '',
  };
}

/**
 * A list's page, page size, ordering, search and filters, kept in the URL's query string so that
 * reload and Back bring them back. Other parameters (e.g. `tab`) are left alone. Changing the
 * search, a filter or the ordering goes back to page 1.
 */
export function useListState<F extends string = never>(filterNames: readonly F[] = []): ListState<F> {
  const [query, setQuery] = useSearchParams();
  const params = useMemo(() => readListParams(query), [query]);
  const filterKey = JSON.stringify(filterNames.map((name) => [name, query.get(name) ?? '']));
  const filters = useMemo(() => Object.fromEntries(JSON.parse(filterKey) as [F, string][]) as Record<F, string>, [filterKey]);

  // A timer writes the search later, with the setter of that moment (it changes with the URL).
  const latestSetQuery = useRef<SetURLSearchParams>(setQuery);
  useEffect(() => {
    latestSetQuery.current = setQuery;
  }, [setQuery]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const change = useCallback((changes: Changes) => {
    latestSetQuery.current((current) => withChanges(current, changes), { replace: true });
  }, []);

  // The box follows the URL when it changes from outside (Back, a tab that clears the query).
  const [searchInput, setSearchInput] = useState(params.search);
  const [seenSearch, setSeenSearch] = useState(params.search);
  if (params.search !== seenSearch) {
    setSeenSearch(params.search);
    if (params.search !== searchInput.trim()) setSearchInput(params.search);
  }

  const setSearch = useCallback(
    (value: string) => {
      setSearchInput(value);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => change({ search: value.trim(), page: null }), SEARCH_DELAY_MS);
    },
    [change],
  );

  return {
    params,
    filters,
    exportParams: { search: params.search, ordering: params.ordering, ...filters },
    searchInput,
    setSearch,
    setFilter: useCallback((name: F, value: string) => change({ [name]: value, page: null }), [change]),
    setPage: useCallback((page: number, pageSize: number) => change({ page, page_size: pageSize }), [change]),
    setOrdering: useCallback((ordering: string) => change({ ordering, page: null }), [change]),
  };
}
