import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AuthProvider } from '../auth/auth-provider';
import { SnackbarProvider } from '../components/snackbar';
import { createAppRouter } from '../routes/router';
import { SettingsProvider } from '../settings/settings-provider';
import { ThemeProvider } from '../theme/theme-provider';
import { signedOut } from './sign-out';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <SettingsProvider>
      <ThemeProvider>
        <SnackbarProvider>
          <AuthProvider onSignedOut={signedOut}>
            <RouterProvider router={router} />
          </AuthProvider>
        </SnackbarProvider>
      </ThemeProvider>
    </SettingsProvider>
  );
}
