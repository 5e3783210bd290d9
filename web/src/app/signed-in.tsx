import { QueryClientProvider } from '@tanstack/react-query';
import { clearExportJobs, ExportJobs } from '../components/export-jobs';
import DashboardLayout from '../layouts/dashboard/dashboard-layout';
import { createQueryClient } from './query-client';
import { onSignOut } from './sign-out';

// The server data cache lives with the signed-in screens, out of the sign-in page's JavaScript. One
// for the visit: kept while a page outside the layout shows (the 404), emptied at sign-out.
const queryClient = createQueryClient();
onSignOut(() => {
  clearExportJobs();
  queryClient.clear();
});

/** The dashboard layout with what only signed-in screens use: the query cache and the export jobs. */
export default function SignedIn() {
  return (
    <QueryClientProvider client={queryClient}>
      <DashboardLayout />
      <ExportJobs />
    </QueryClientProvider>
  );
}
