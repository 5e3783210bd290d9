import LinearProgress from '@mui/material/LinearProgress';
import { useNavigation } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The thin bar at the top of the window while a route (and its lazy chunk) loads. */
export function NavigationProgress() {
  const navigation = useNavigation();
  const { t } = useTranslation();
  if (navigation.state === 'idle') return null;
  return (
    <LinearProgress
      data-testid="navigation-progress"
      aria-label={t('app.loading')}
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, height: 2.5, zIndex: (theme) => theme.zIndex.tooltip + 1 }}
    />
  );
}
