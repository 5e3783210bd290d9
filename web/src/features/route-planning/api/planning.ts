import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectData, expectList, expectReply } from '../../../api/replies';
import type {
  ItemReply,
  ListReply,
  MachineCash,
  Option,
  PicklistRequest,
  Plan,
  PlannedRoute,
  PlanningMap,
  PlanningSettings,
  RankedMachine,
  SaveRoutesRequest,
  SelectionNeed,
  User,
} from '../../../api/types';
import { planningKeys, type RankedListParams } from './keys';

/** Someone who can drive a route. */
export type Refiller = Pick<Option, 'id' | 'name'>;

const base = '/api/route-planning/';
const machine = (id: string) => `${base}machines/${encodeURIComponent(id)}/`;

/** One page of the machines ranked by need for a visit day (every machine, or those needing a visit). */
export function useRankedMachines(params: RankedListParams) {
  return useQuery({
    queryKey: planningKeys.list(params),
    queryFn: async () => expectList(await api.get<ListReply<RankedMachine>>(base, { query: { ...params } })),
    placeholderData: keepPreviousData,
  });
}

/** Every machine of the scope with its need (no paging), and the depot: the map, and "select all that need a visit". */
export function usePlanningMap(visitDate: string) {
  return useQuery({
    queryKey: planningKeys.map(visitDate),
    queryFn: async () => expectData(await api.get<{ data: PlanningMap }>(`${base}map/`, { query: { visit_date: visitDate } })),
    placeholderData: keepPreviousData,
  });
}

/** A machine's selections with their velocity and what to bring on the visit day. */
export function useMachineNeeds(machineId: string | null, visitDate: string) {
  return useQuery({
    queryKey: planningKeys.products(machineId ?? '', visitDate),
    queryFn: async () => expectData(await api.get<{ data: SelectionNeed[] }>(`${machine(machineId ?? '')}products/`, { query: { visit_date: visitDate } })),
    enabled: Boolean(machineId),
  });
}

/** A machine's cash: what is in it, its last collection, and whether it calls for one. */
export function useMachineCash(machineId: string | null) {
  return useQuery({
    queryKey: planningKeys.cash(machineId ?? ''),
    queryFn: async () => expectData(await api.get<{ data: MachineCash }>(`${machine(machineId ?? '')}machine-cash/`)),
    enabled: Boolean(machineId),
  });
}

/** The users list allows 200 a page: enough pages for any staff. */
const USERS_PAGE = 200;
const USERS_PAGES = 10;

/**
 * The refillers to choose from: the active users of the users list (`GET /api/users/?status=active`,
 * as user management reads it) for whoever may list users, else the active employees every
 * signed-in user may read (`/api/filters/employees/`). `enabled` false: only oneself is offered.
 */
export function useRefillers(canListUsers: boolean, enabled: boolean) {
  const source = canListUsers ? 'users' : 'employees';
  return useQuery({
    queryKey: planningKeys.refillers(source),
    queryFn: async (): Promise<Refiller[]> => {
      if (source === 'employees') return expectData(await api.get<{ data: Option[] }>('/api/filters/employees/')).map(({ id, name }) => ({ id, name }));
      const out: Refiller[] = [];
      for (let page = 1; page <= USERS_PAGES; page += 1) {
        const reply = expectList(await api.get<ListReply<User>>('/api/users/', { query: { status: 'active', ordering: 'name', page, page_size: USERS_PAGE } }));
        out.push(...reply.data.filter((user) => user.active).map((user) => ({ id: user.id, name: user.name })));
        if (reply.data.length < USERS_PAGE || out.length >= reply.pagination.count) break;
      }
      return out;
    },
    enabled,
    staleTime: 60_000,
  });
}

/** Plans the routes: the stops of each refiller in order, what could not be routed, and the picklist. */
export function useGeneratePicklist() {
  return useMutation({
    mutationFn: async (body: PicklistRequest) => expectData(await api.post<{ data: Plan }>(`${base}generate-picklist/`, body)),
  });
}

/** Saves the plan as planned routes (one per refiller), their picklists computed by the server now. */
export function useSavePlannedRoutes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: SaveRoutesRequest) => expectReply(await api.post<ItemReply<PlannedRoute[]>>('/api/planned-routes/', body)),
    onSuccess: () => client.invalidateQueries({ queryKey: planningKeys.plannedRoutes }),
  });
}

/** The operator's planning settings (thresholds, shift, van, depot). */
export function usePlanningSettings(enabled: boolean) {
  return useQuery({
    queryKey: planningKeys.settings,
    queryFn: async () => expectData(await api.get<{ data: PlanningSettings }>(`${base}settings/`)),
    enabled,
    staleTime: 0,
  });
}

/** Saves the settings with the version read; the ranking changes with them. */
export function useSavePlanningSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: PlanningSettings) => expectReply(await api.put<ItemReply<PlanningSettings>>(`${base}settings/`, body)),
    onSuccess: () => client.invalidateQueries({ queryKey: planningKeys.all }),
  });
}
