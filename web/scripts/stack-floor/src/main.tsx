import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ThemeProvider, createTheme, CssBaseline } from '@mui/material';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SnackbarProvider } from 'notistack';
void i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: { hi: 'Hi' } } } });
const router = createBrowserRouter([
  { path: '/login', lazy: async () => ({ Component: (await import('./login')).Login }) },
  { path: '/grid', lazy: async () => ({ Component: (await import('./grid')).Grid }) },
]);
createRoot(document.getElementById('root')!).render(
  <ThemeProvider theme={createTheme()}><CssBaseline /><SnackbarProvider><RouterProvider router={router} /></SnackbarProvider></ThemeProvider>,
);
