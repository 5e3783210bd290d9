import { clearExportJobs } from '../components/export-jobs';
import { createQueryClient } from './query-client';
import { onSignOut } from './sign-out';

// The server data cache (and the export jobs followed) live with the signed-in screens (the dashboard layout and the refiller's
// app), out of the sign-in page's JavaScript. One for the visit: kept while a page outside the
// layout shows (the 404), emptied at sign-out.
export const signedInQueryClient = createQueryClient();
onSignOut(() => {
  clearExportJobs();
  signedInQueryClient.clear();
});
