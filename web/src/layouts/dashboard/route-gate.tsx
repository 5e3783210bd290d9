import type { ReactNode } from 'react';
import { useMatches } from 'react-router';
import { usePermission } from '../../auth/use-permission';
import { ForbiddenView } from '../../components/error-views';
import type { RouteHandle } from '../../routes/handle';

/** A protected screen whose permission key the user lacks shows "Permission denied" instead. */
export function RouteGate({ children }: { children: ReactNode }) {
  const matches = useMatches();
  const can = usePermission();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const keys = handle?.permission;
  if (keys && !(Array.isArray(keys) ? keys.some(can) : can(keys))) return <ForbiddenView />;
  return <>{children}</>;
}
