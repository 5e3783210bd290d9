import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { expectData, expectItem, expectList, expectReply } from '../../../api/replies';
import type {
  BookedVisit,
  FillFromRouteRequest,
  ItemReply,
  ListReply,
  Option,
  PlannedRoute,
  RouteAccuracy,
  RouteStocks,
  RouteStop,
  RouteValues,
  StopPicklist,
} from '../../../api/types';
import type { ExportFormat } from '../../../components/export-menu';
import type { RouteStatus } from '../route-logic';
import { routeKeys, type RouteListParams } from './keys';

const base = '/api/planned-routes/';
const one = (id: string) => `${base}${encodeURIComponent(id)}/`;

/** The planned routes, newest visit first, with their stop and visit counts. */
export function usePlannedRoutes(params: RouteListParams) {
  return useQuery({
    queryKey: routeKeys.list(params),
    queryFn: async () => expectList(await api.get<ListReply<PlannedRoute>>(base, { query: { ...params } })),
    placeholderData: keepPreviousData,
  });
}

export function usePlannedRoute(id: string) {
  return useQuery({
    queryKey: routeKeys.detail(id),
    queryFn: async () => expectItem(await api.get<ItemReply<PlannedRoute>>(one(id))).data,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

/** The route's stops in order, each with its visit once booked. */
export function useRouteStops(id: string) {
  return useQuery({
    queryKey: routeKeys.part(id, 'machines'),
    queryFn: async () => [...expectData(await api.get<{ data: RouteStop[] }>(`${one(id)}machines/`))].sort((a, b) => a.order - b.order),
    staleTime: 0,
  });
}

/** Each stop's picklist lines (and, once visited, what was found, filled and removed). */
export function useRoutePicklist(id: string, enabled = true) {
  return useQuery({
    queryKey: routeKeys.part(id, 'products'),
    queryFn: async () => expectData(await api.get<{ data: StopPicklist[] }>(`${one(id)}machines/products/`)),
    enabled,
    staleTime: 0,
  });
}

/** The same lines with their money: the price, what the picklist is worth and what was filled. */
export function useRoutePicklistValues(id: string, enabled = true) {
  return useQuery({
    queryKey: routeKeys.part(id, 'values'),
    queryFn: async () => expectData(await api.get<{ data: RouteValues }>(`${one(id)}machines/products/values/`)),
    enabled,
    staleTime: 0,
  });
}

/** Per product (and component): loaded, filled, removed and returned. */
export function useRouteStocks(id: string) {
  return useQuery({
    queryKey: routeKeys.part(id, 'stocks'),
    queryFn: async () => expectData(await api.get<{ data: RouteStocks }>(`${one(id)}stocks/`)),
    staleTime: 0,
  });
}

/** The forecast's accuracy against what the refiller found. */
export function useRouteAccuracy(id: string) {
  return useQuery({
    queryKey: routeKeys.part(id, 'accuracy'),
    queryFn: async () => expectData(await api.get<{ data: RouteAccuracy }>(`${one(id)}accuracy/`)),
    staleTime: 0,
  });
}

/** The active employees every signed-in user may read (the employee filter and the change-employee dialog). */
export function useEmployeeOptions() {
  return useQuery({
    queryKey: routeKeys.employees,
    queryFn: async () => expectData(await api.get<{ data: Option[] }>('/api/filters/employees/')),
    staleTime: 60_000,
  });
}

function useInvalidateRoute(id: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: routeKeys.detail(id) }),
      client.invalidateQueries({ queryKey: routeKeys.of(id) }),
      client.invalidateQueries({ queryKey: ['planned-routes', 'list'] }),
    ]);
}

/** Moves the route's status (start, finish, cancel); a move the rules refuse answers 409 with the reason. */
export function useChangeRouteStatus(id: string) {
  const invalidate = useInvalidateRoute(id);
  return useMutation({
    mutationFn: async ({ status, version }: { status: RouteStatus; version: number }) =>
      expectReply(await api.post<ItemReply<PlannedRoute>>(`${one(id)}status/`, { status, version })),
    onSuccess: invalidate,
  });
}

/** Hands the route to another employee (who must reach every machine of it: 400 otherwise). */
export function useChangeRouteEmployee(id: string) {
  const invalidate = useInvalidateRoute(id);
  return useMutation({
    mutationFn: async (employeeId: string) => expectReply(await api.post<ItemReply<PlannedRoute>>(`${one(id)}change-employee/`, { employee_id: employeeId })),
    onSuccess: invalidate,
  });
}

export function useDeleteRoute() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<null>(one(id)),
    onSuccess: () => client.invalidateQueries({ queryKey: ['planned-routes', 'list'] }),
  });
}

/** Takes a machine off the route (not a visited stop, not a final route: 409). */
export function useRemoveStop(id: string) {
  const invalidate = useInvalidateRoute(id);
  return useMutation({
    mutationFn: async (machineId: string) => api.del<ItemReply<PlannedRoute>>(`${one(id)}machines/${encodeURIComponent(machineId)}/`),
    onSuccess: invalidate,
  });
}

/** Books a stop's visit in one step; a retry with the same `request_id` answers the first booking. */
export function useFillFromRoute(routeId: string) {
  const invalidate = useInvalidateRoute(routeId);
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: FillFromRouteRequest) => expectData(await api.post<ItemReply<BookedVisit>>('/api/machines/fill-from-route/', body)),
    onSuccess: () => Promise.all([invalidate(), client.invalidateQueries({ queryKey: ['route-planning'] })]),
  });
}

/** The route's full table (stop, machine, selection, product, current, predicted, to bring, found, filled, removed, reason). */
export function exportRoute(id: string, format: ExportFormat) {
  return requestExport(`${one(id)}export/`, { format }, `planned-route.${format}`);
}
