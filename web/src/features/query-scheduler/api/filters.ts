import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { expectData } from '../../../api/replies';
import type { Option } from '../../../api/types';
import { keyLabels } from '../../../components/report-definition/definition-api';
import type { KeyLabel } from '../../../components/report-definition/definition-logic';
import { schedulerKeys } from './keys';

/** The modules a query can run, labelled in the user's language. */
export function useSchedulerModules() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: schedulerKeys.modules(i18n.language),
    queryFn: async (): Promise<KeyLabel[]> => keyLabels(expectData(await api.get<{ data: Option[] }>('/api/filters/query-schedulers/modules/'))),
    staleTime: 5 * 60_000,
  });
}

/** The relative periods a query's report covers (yesterday, the previous week, …), counted from each run. */
export function useSchedulerPeriods(enabled = true) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: schedulerKeys.periods(i18n.language),
    queryFn: async (): Promise<KeyLabel[]> => keyLabels(expectData(await api.get<{ data: Option[] }>('/api/filters/query-schedulers/periods/'))),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** The users who may receive it (active employees). */
export function useRecipientUsers() {
  return useQuery({
    queryKey: schedulerKeys.employees,
    queryFn: async () => (await api.get<{ data: Option[] }>('/api/filters/employees/')).data ?? [],
    staleTime: 60_000,
  });
}

/** Every IANA zone; it does not change while the app runs. */
export function useTimeZones() {
  return useQuery({
    queryKey: schedulerKeys.timeZones,
    queryFn: async () => (await api.get<{ data: string[] }>('/api/filters/timezones/')).data ?? [],
    staleTime: Infinity,
  });
}
