// The report filter bar's own choice lists: the period presets with today's dates and the fixed
// lists (values, grouping periods, group by) named by the server. The fleet and product lists
// share the keys of their areas.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import type { Option, PeriodPreset } from '../../api/types';

export const reportFilterKeys = {
  periods: ['filters', 'reports', 'periods'] as const,
  choices: (path: string, language: string) => ['filters', 'reports', path, language] as const,
};

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
export function useReportChoices(kind: keyof typeof CHOICE_ENDPOINTS, enabled = true) {
  const { i18n } = useTranslation();
  const path = CHOICE_ENDPOINTS[kind];
  return useQuery({
    queryKey: reportFilterKeys.choices(path, i18n.language),
    queryFn: async () => (await api.get<{ data: Option[] }>(path)).data ?? [],
    staleTime: 5 * 60_000,
    enabled,
  });
}
