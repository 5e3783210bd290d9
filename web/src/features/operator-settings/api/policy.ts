import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { operatorSettingsKey } from '../../../api/operator-settings';
import { expectReply } from '../../../api/replies';
import type { ItemReply, OperatorPolicyForm, OperatorSettings } from '../../../api/types';

/**
 * Changes the operator's policy (`PUT /api/settings/operator/`, a fleet administrator only; 403
 * for others, 409 when someone changed it since `version` was read). The reply is the settings as
 * they now stand: every screen reading them follows at once.
 */
export function useUpdatePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: OperatorPolicyForm) => expectReply(await api.put<ItemReply<OperatorSettings>>('/api/settings/operator/', input)),
    onSuccess: async (reply) => {
      if (reply.data) client.setQueryData(operatorSettingsKey, reply.data);
      else await client.invalidateQueries({ queryKey: operatorSettingsKey });
    },
  });
}
