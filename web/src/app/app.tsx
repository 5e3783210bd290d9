import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { AuthProvider } from '../auth/auth-provider';
import { clearExportJobs, ExportJobs } from '../components/export-jobs';
import { SnackbarProvider } from '../components/snackbar';
import { createAppRouter } from '../routes/router';
import { SettingsProvider } from '../settings/settings-provider';
import { ThemeProvider } from '../theme/theme-provider';
import { createQueryClient } from './query-client';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  return (
    <SettingsProvider>
      <ThemeProvider>
        <SnackbarProvider>
          <QueryClientProvider client={queryClient}>
            <AuthProvider
              onSignedOut={() => {
                clearExportJobs();
                queryClient.clear();
              }}
            >
              <RouterProvider router={router} />
            </AuthProvider>
            <ExportJobs />
          </QueryClientProvider>
        </SnackbarProvider>
      </ThemeProvider>
    </SettingsProvider>
  );
}
