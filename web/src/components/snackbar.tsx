import type { ReactNode } from 'react';
import { closeSnackbar, enqueueSnackbar, SnackbarProvider as NotistackProvider } from 'notistack';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';

/** Notification limits of spec section 9. */
export const SNACKBAR = { max: 5, autoHideMs: 3000 } as const;

export function SnackbarProvider({ children }: { children: ReactNode }) {
  return (
    <NotistackProvider
      maxSnack={SNACKBAR.max}
      preventDuplicate
      autoHideDuration={SNACKBAR.autoHideMs}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      action={(key) => (
        <IconButton size="small" color="inherit" aria-label="close" onClick={() => closeSnackbar(key)}>
          <CloseIcon fontSize="small" />
        </IconButton>
      )}
    >
      {children}
    </NotistackProvider>
  );
}

export const toast = {
  success: (message: string) => enqueueSnackbar(message, { variant: 'success' }),
  error: (message: string) => enqueueSnackbar(message, { variant: 'error' }),
  info: (message: string) => enqueueSnackbar(message, { variant: 'info' }),
};
