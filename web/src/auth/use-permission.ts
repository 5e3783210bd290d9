import { useCallback } from 'react';
import { useAuth } from './context';
import { canReport, hasModule, type ReportArea, type ReportPart } from './permissions';

/** `can('settings.users.new')`: hides what the server would refuse. */
export function usePermission() {
  const { user } = useAuth();
  return useCallback((key: string) => hasModule(user, key), [user]);
}

/** `allowed('export')` on a report's screen: the part's own key or the area's full access. */
export function useReportPermission<A extends ReportArea>(area: A) {
  const { user } = useAuth();
  return useCallback((part: ReportPart<A>) => canReport(user, area, part), [user, area]);
}
