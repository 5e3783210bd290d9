import { QueryClientProvider } from '@tanstack/react-query';
import { ExportJobs } from '../components/export-jobs';
import DashboardLayout from '../layouts/dashboard/dashboard-layout';
import { signedInQueryClient as queryClient } from './signed-in-cache';

/** The dashboard layout with what only signed-in screens use: the query cache and the export jobs. */
export default function SignedIn() {
  return (
    <QueryClientProvider client={queryClient}>
      <DashboardLayout />
      <ExportJobs />
    </QueryClientProvider>
  );
}
