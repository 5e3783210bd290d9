// The operator's settings (`GET /api/settings/operator/`), read by several areas: the data-policy
// screen, the scheduler's form (allowed mail domains, minimum interval) and the navigation (the
// audit trail is for whoever may change the policy).
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { expectData } from './replies';
import type { OperatorSettings } from './types';

export const operatorSettingsKey = ['settings', 'operator'] as const;

/**
 * The operator's calendar and policy. `fresh`: read again on mount (the screen that changes the
 * policy sends back the version it read).
 */
export function useOperatorSettings({ fresh = false }: { fresh?: boolean } = {}) {
  return useQuery({
    queryKey: operatorSettingsKey,
    queryFn: async () => expectData(await api.get<{ data: OperatorSettings }>('/api/settings/operator/')),
    staleTime: fresh ? 0 : 60_000,
    // A hint where it is shown; the screens that need it say so themselves.
    meta: { silent: true },
  });
}

/** Whether the caller may change the operator's policy and read the audit trail (a fleet administrator). */
export function useFleetAdmin(): boolean {
  return useOperatorSettings().data?.editable === true;
}
