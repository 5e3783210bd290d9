import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';

/** Shown while the session or a screen is being prepared. */
export function LoadingScreen({ inline = false }: { inline?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box
      role="progressbar"
      aria-busy="true"
      aria-label={t('app.loading')}
      sx={{
        flexGrow: 1,
        minHeight: inline ? 240 : '100vh',
        width: 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        px: 5,
      }}
    >
      <LinearProgress color="inherit" sx={{ width: 1, maxWidth: 360 }} aria-hidden />
    </Box>
  );
}
