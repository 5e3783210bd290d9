import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { signedInQueryClient } from '../app/signed-in-cache';
import { ExportJobs } from '../components/export-jobs';
import { MyDayFrame } from '../features/my-day/components/my-day-frame';
import { OutboxProvider } from '../features/my-day/use-outbox';
import { RouteGate } from './dashboard/route-gate';

/**
 * The refiller's phone app (issue 30): its own layout, the signed-in screens' data cache, the
 * outbox sending in the background. Opening it installs the service worker that keeps the app
 * shell for offline use (only here: the office screens need no offline copy).
 */
export default function MyDayLayout() {
  useEffect(() => {
    if (import.meta.env.PROD) void import('../app/register-sw').then((module) => module.registerServiceWorker());
  }, []);
  return (
    <QueryClientProvider client={signedInQueryClient}>
      <OutboxProvider>
        <MyDayFrame>
          <RouteGate>
            <Outlet />
          </RouteGate>
        </MyDayFrame>
      </OutboxProvider>
      <ExportJobs />
    </QueryClientProvider>
  );
}
