// The phone layout of the refiller's app: a dark bar with the sync state, the screen, and the
// bottom navigation (routes, queue, loading list). No sidebar; every target at least 48 px.
import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import RoutesIcon from '@mui/icons-material/RouteOutlined';
import QueueIcon from '@mui/icons-material/CloudUploadOutlined';
import LoadingIcon from '@mui/icons-material/Inventory2Outlined';
import ExitIcon from '@mui/icons-material/ExitToApp';
import { paths } from '../../../routes/paths';
import { useOutboxSummary } from '../use-outbox';
import { useOnline } from '../../../components/use-online';

function Tab(value: string) {
  return (pathname: string) => (value === paths.myDay.root ? pathname === value || pathname.startsWith(`${value}/routes`) : pathname.startsWith(value));
}

export function MyDayFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const online = useOnline();
  const { pending, refused } = useOutboxSummary();
  const tabs = [
    { value: paths.myDay.root, label: t('myDay.routes'), icon: <RoutesIcon /> },
    {
      value: paths.myDay.queue,
      label: t('myDay.queue'),
      icon: (
        <Badge badgeContent={pending + refused} color={refused > 0 ? 'error' : 'primary'} max={99}>
          <QueueIcon />
        </Badge>
      ),
    },
    { value: paths.myDay.loading, label: t('myDay.loadingTab'), icon: <LoadingIcon /> },
  ];
  const current = tabs.find((tab) => Tab(tab.value)(pathname))?.value ?? false;
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default', '@media print': { minHeight: 0 } }} data-testid="my-day">
      <Box
        component="header"
        sx={{ position: 'sticky', top: 0, zIndex: 10, bgcolor: 'grey.900', color: 'common.white', display: 'flex', alignItems: 'center', gap: 1, px: 2, minHeight: 56, '@media print': { display: 'none' } }}
      >
        <Typography variant="h6" component="p" noWrap sx={{ flex: 1, fontWeight: 700 }}>
          {t('myDay.title')}
        </Typography>
        <Typography
          component={RouterLink}
          to={paths.myDay.queue}
          variant="body2"
          data-testid="sync-summary"
          data-pending={pending}
          data-refused={refused}
          sx={{ color: 'common.white', fontWeight: 600, textDecoration: 'underline', minHeight: 48, display: 'inline-flex', alignItems: 'center' }}
        >
          {pending + refused === 0 ? t('myDay.allSent') : t('myDay.syncSummary', { pending, refused })}
        </Typography>
        <IconButton component={RouterLink} to={paths.dashboard.root} aria-label={t('myDay.backToApp')} sx={{ color: 'common.white', width: 48, height: 48 }}>
          <ExitIcon />
        </IconButton>
      </Box>
      {online ? null : (
        <Alert severity="warning" data-testid="my-day-offline" sx={{ borderRadius: 0, fontSize: '1rem', '@media print': { display: 'none' } }}>
          {t('myDay.offline')}
        </Alert>
      )}
      <Box component="main" sx={{ flex: 1, width: '100%', maxWidth: 640, mx: 'auto', px: 2, pt: 2, pb: 12, display: 'flex', flexDirection: 'column', gap: 2, '@media print': { maxWidth: 'none', p: 0 } }}>
        {children}
      </Box>
      <Paper component="nav" elevation={8} sx={{ position: 'fixed', bottom: 0, left: 0, right: 0, zIndex: 10, '@media print': { display: 'none' } }}>
        <BottomNavigation showLabels value={current} sx={{ height: 64 }}>
          {tabs.map((tab) => (
            <BottomNavigationAction
              key={tab.value}
              component={RouterLink}
              to={tab.value}
              value={tab.value}
              label={tab.label}
              icon={tab.icon}
              sx={{ color: 'text.secondary', minWidth: 0, '&.Mui-selected': { color: 'text.primary', fontWeight: 700 }, '& .MuiBottomNavigationAction-label.Mui-selected': { fontSize: '0.875rem' } }}
            />
          ))}
        </BottomNavigation>
      </Paper>
    </Box>
  );
}
