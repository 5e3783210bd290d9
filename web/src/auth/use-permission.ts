import { useCallback } from 'react';
import { useAuth } from './context';
import { hasModule } from './permissions';

/** `can('settings.users.new')`: hides what the server would refuse. */
export function usePermission() {
  const { user } = useAuth();
  return useCallback((key: string) => hasModule(user, key), [user]);
}
