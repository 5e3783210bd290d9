// What the refiller's app reads: the routes assigned to me, a route with its picklists and loading
// list, and the loading list of a day. Each reply is kept on the phone when it arrives and read
// from there when the server cannot be reached (no answer, or a server fault).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../api/client';
import { requestExport } from '../../api/download';
import { expectData, expectList, expectReply } from '../../api/replies';
import type { ListReply, LoadingList, PlannedRoute, StopPicklist } from '../../api/types';
import { keep, kept, myDayDb } from './offline-db';

/** A stop of my route, with its address and outcome (visited, not serviced). */
export type MyStop = PlannedRoute['machines'][number];
/** A route with the day its picklists were computed for (`picklist_stale` when it moved since). */
export type MyRoute = PlannedRoute;
export type { LoadingList };

/** A reply, fresh or the copy kept on the phone (`offline`), with when it was fetched. */
export interface Fetched<T> {
  value: T;
  savedAt: number;
  offline: boolean;
}

export interface RouteBundle {
  route: MyRoute;
  picklists: StopPicklist[];
  /** Null when the server has no loading list for it. */
  loading: LoadingList | null;
}

/** No answer or a server fault: the kept copy will do. A refusal (4xx) is the server's word. */
function unreachable(error: unknown): boolean {
  return !isApiError(error) || error.status === 0 || error.status >= 500;
}

/** Fetches and keeps a copy under `key`; when the server is unreachable, the copy. */
export async function fetchOrKept<T>(key: string, load: () => Promise<T>, now: () => number = Date.now): Promise<Fetched<T>> {
  const db = await myDayDb();
  try {
    const value = await load();
    const savedAt = now();
    await keep(db, key, value, savedAt);
    return { value, savedAt, offline: false };
  } catch (error) {
    if (!unreachable(error)) throw error;
    const copy = await kept<T>(db, key);
    if (!copy) throw error;
    return { value: copy.value, savedAt: copy.savedAt, offline: true };
  }
}

/** A date as the local YYYY-MM-DD. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The days the list covers: today and the next six. */
export function upcomingDays(today: Date): { from: string; to: string } {
  const last = new Date(today);
  last.setDate(last.getDate() + 6);
  return { from: localDay(today), to: localDay(last) };
}

const ROUTES = '/api/planned-routes/';
const one = (id: string) => `${ROUTES}${encodeURIComponent(id)}/`;

export const myDayKeys = {
  all: ['my-day'] as const,
  routes: (employee: string, from: string) => ['my-day', 'routes', employee, from] as const,
  route: (id: string) => ['my-day', 'route', id] as const,
  loading: (scope: string) => ['my-day', 'loading', scope] as const,
};

/** A loading list (`?route_id=` or `?date=`); null when the server has none (404). */
async function loadLoadingList(query: { route_id?: string; date?: string }): Promise<LoadingList | null> {
  try {
    return expectData(await api.get<{ data: LoadingList }>(`${ROUTES}loading-list/`, { query }));
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/** Today's and the next days' routes of the employee, by visit date. */
export function useMyRoutes(employee: string, today: Date) {
  const days = upcomingDays(today);
  return useQuery({
    queryKey: myDayKeys.routes(employee, days.from),
    queryFn: () =>
      fetchOrKept(`routes:${employee}:${days.from}`, async () => {
        const reply = expectList(
          await api.get<ListReply<MyRoute>>(ROUTES, { query: { employee, date_from: days.from, date_to: days.to, page_size: 50 } }),
        );
        return [...reply.data].sort((a, b) => a.visit_date.localeCompare(b.visit_date) || a.name.localeCompare(b.name));
      }),
    networkMode: 'always',
    staleTime: 0,
  });
}

/** A route with its stops' picklists and its loading list, kept on the phone when opened. */
export function useMyRoute(id: string) {
  return useQuery({
    queryKey: myDayKeys.route(id),
    queryFn: () =>
      fetchOrKept<RouteBundle>(`route:${id}`, async () => {
        const [route, picklists, loading] = await Promise.all([
          api.get<{ data: MyRoute }>(one(id)).then(expectData),
          api.get<{ data: StopPicklist[] }>(`${one(id)}machines/products/`).then(expectData),
          loadLoadingList({ route_id: id }),
        ]);
        return { route: { ...route, machines: [...route.machines].sort((a, b) => a.order - b.order) }, picklists, loading };
      }),
    networkMode: 'always',
    staleTime: 0,
  });
}

/** The loading list of a day (every route of it I may read). */
export function useDayLoadingList(date: string, enabled: boolean) {
  return useQuery({
    queryKey: myDayKeys.loading(`date:${date}`),
    queryFn: () => fetchOrKept(`loading:date:${date}`, () => loadLoadingList({ date })),
    networkMode: 'always',
    enabled,
    staleTime: 0,
  });
}

/** Ticks products off as loaded, route by route. */
export function useSaveLoading() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (changes: { routeId: string; lines: { product_id: string; loaded: number }[] }[]) => {
      for (const change of changes) {
        expectReply(await api.put<{ message: string; data: LoadingList }>(`${one(change.routeId)}loading/`, { lines: change.lines }));
      }
    },
    onSuccess: () => client.invalidateQueries({ queryKey: myDayKeys.all }),
    networkMode: 'always',
  });
}

/** The route's full table as a file (csv or xlsx): my own routes too. */
export function exportMyRoute(id: string, format: 'csv' | 'xlsx') {
  return requestExport(`${one(id)}export/`, { format }, `planned-route.${format}`);
}
