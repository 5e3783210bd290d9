// The operator's settings (`GET /api/settings/operator/`), read by several areas: the data-policy
// screen, the scheduler's form (allowed mail domains, minimum interval) and the navigation (the
// audit trail is for whoever may change the policy).
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { expectData } from './replies';
import type { OperatorSettings } from './types';

export const operatorSettingsKey = ['settings', 'operator'] as const;

/** The operator's calendar and policy; `enabled` false where the caller has no use for them. */
export function useOperatorSettings(enabled = true) {
  return useQuery({
    queryKey: operatorSettingsKey,
    queryFn: async () => expectData(await api.get<{ data: OperatorSettings }>('/api/settings/operator/')),
    staleTime: 60_000,
    enabled,
    // A hint where it is shown; the screens that need it say so themselves.
    meta: { silent: true },
  });
}

/** Whether the caller may change the operator's policy and read the audit trail (a fleet administrator). */
export function useFleetAdmin(): boolean {
  return useOperatorSettings().data?.editable === true;
}
