import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import type { Option, PeriodPreset } from '../../../api/types';
import { reportFilterKeys } from './keys';

/** The period presets with the dates each stands for today (they move at midnight). */
export function usePeriodPresets() {
  return useQuery({
    queryKey: reportFilterKeys.periods,
    queryFn: async () => (await api.get<{ data: PeriodPreset[] }>('/api/filters/periods/')).data ?? [],
    staleTime: 5 * 60_000,
  });
}

export const CHOICE_ENDPOINTS = {
  value: '/api/filters/values/',
  groupingPeriod: '/api/filters/grouping-periods/',
  groupBy: '/api/filters/sales-journal/group-by/',
} as const;

/** A fixed choice list of the reports (values, grouping periods, group by), named by the server. */
export function useReportChoices(kind: keyof typeof CHOICE_ENDPOINTS) {
  const { i18n } = useTranslation();
  const path = CHOICE_ENDPOINTS[kind];
  return useQuery({
    queryKey: reportFilterKeys.choices(path, i18n.language),
    queryFn: async () => (await api.get<{ data: Option[] }>(path)).data ?? [],
    staleTime: 5 * 60_000,
  });
}
