import { useState } from 'react';
import { Outlet, useMatches, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import useScrollTrigger from '@mui/material/useScrollTrigger';
import { alpha, useTheme } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useFleetAdmin } from '../../api/operator-settings';
import { useAuth } from '../../auth/context';
import type { RouteHandle } from '../../routes/handle';
import { paths } from '../../routes/paths';
import { useSettings } from '../../settings/context';
import { SettingsDrawer } from '../../settings/settings-drawer';
import { STRETCH_MIN_WIDTH } from '../../settings/types';
import { AccountPopover } from '../account-popover';
import { LAYOUT } from '../config';
import { LanguagePopover } from '../language-popover';
import { Logo } from '../logo';
import { navConfig } from '../nav-config';
import { NavSectionHorizontal, NavSectionMini, NavSectionVertical } from '../nav-section';
import { filterNavGroups } from '../nav-visibility';
import { RouteGate } from './route-gate';

/** "Need help?": a dialog naming the current screen, who to ask, and the way to one's account page. */
function HelpLink() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as RouteHandle | undefined;
  return (
    <>
      <Button size="small" color="inherit" onClick={() => setOpen(true)} sx={{ display: { xs: 'none', sm: 'inline-flex' } }} data-testid="help-button">
        {t('app.needHelp')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="xs" fullWidth data-testid="help-dialog">
        <DialogTitle>{t('help.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={1.5}>
            {handle?.title ? <Typography variant="body2">{t('help.screen', { screen: t(handle.title) })}</Typography> : null}
            <Typography variant="body2">{t('header.helpText')}</Typography>
            <Typography variant="body2">{t('help.account')}</Typography>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('help.close')}</Button>
          <Button
            variant="contained"
            onClick={() => {
              setOpen(false);
              navigate(paths.account);
            }}
          >
            {t('help.openAccount')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** The signed-in frame: header, navigation in the chosen layout, settings drawer. */
export default function DashboardLayout() {
  const theme = useTheme();
  const { t } = useTranslation();
  const { user } = useAuth();
  const settings = useSettings();
  const lgUp = useMediaQuery(theme.breakpoints.up('lg'));
  const wide = useMediaQuery(`(min-width:${STRETCH_MIN_WIDTH}px)`);
  const scrolled = useScrollTrigger({ disableHysteresis: true, threshold: LAYOUT.headerShrinkThreshold });
  const [mobileOpen, setMobileOpen] = useState(false);

  const fleetAdmin = useFleetAdmin();
  const data = filterNavGroups(navConfig, user, { fleetAdmin });
  const layout = settings.themeLayout;
  const navWidth = !lgUp || layout === 'horizontal' ? 0 : layout === 'mini' ? LAYOUT.navMini : LAYOUT.navVertical;
  const headerHeight = lgUp ? (scrolled ? LAYOUT.headerDesktopOffset : LAYOUT.headerDesktop) : LAYOUT.headerMobile;
  const stretched = settings.themeStretch && wide;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', flexDirection: 'column' }}>
      <AppBar
        position="fixed"
        color="transparent"
        elevation={0}
        sx={{
          left: { lg: navWidth },
          width: { lg: `calc(100% - ${navWidth}px)` },
          transition: theme.transitions.create(['height', 'background-color']),
          backdropFilter: 'blur(6px)',
          bgcolor: alpha(theme.palette.background.default, 0.8),
          color: 'text.primary',
          borderBottom: layout === 'horizontal' && lgUp ? `1px dashed ${theme.palette.divider}` : 'none',
        }}
      >
        <Toolbar sx={{ height: headerHeight, transition: theme.transitions.create('height'), px: { xs: 2, lg: 5 }, gap: 1 }}>
          {!lgUp ? (
            <IconButton aria-label={t('nav.openMenu')} onClick={() => setMobileOpen(true)} edge="start">
              <MenuIcon />
            </IconButton>
          ) : null}
          {layout === 'horizontal' && lgUp ? <Logo /> : null}
          <Box sx={{ flexGrow: 1 }} />
          <HelpLink />
          <LanguagePopover />
          <Tooltip title={t('header.settings')}>
            <IconButton aria-label={t('header.settings')} data-testid="settings-button" onClick={settings.onToggle}>
              <SettingsIcon />
            </IconButton>
          </Tooltip>
          <AccountPopover />
        </Toolbar>
        {layout === 'horizontal' && lgUp ? (
          <Toolbar
            sx={{ minHeight: `${LAYOUT.navHorizontal}px !important`, px: { lg: 5 }, bgcolor: alpha(theme.palette.background.default, 0.8) }}
          >
            <NavSectionHorizontal data={data} />
          </Toolbar>
        ) : null}
      </AppBar>

      {lgUp && layout !== 'horizontal' ? (
        <Box
          component="aside"
          data-testid={`nav-${layout}`}
          sx={{
            position: 'fixed',
            top: 0,
            left: 0,
            bottom: 0,
            width: navWidth,
            borderRight: `1px dashed ${theme.palette.divider}`,
            bgcolor: 'background.default',
            zIndex: theme.zIndex.appBar + 1,
            display: 'flex',
            flexDirection: 'column',
            transition: theme.transitions.create('width'),
          }}
        >
          <Box sx={{ pt: 2.5, pb: 2, px: layout === 'mini' ? 0 : 3, display: 'flex', justifyContent: layout === 'mini' ? 'center' : 'flex-start' }}>
            <Logo withText={layout !== 'mini'} />
          </Box>
          <Tooltip title={t('nav.toggleMini')} placement="right">
            <IconButton
              aria-label={t('nav.toggleMini')}
              data-testid="nav-toggle"
              size="small"
              onClick={() => settings.onUpdate({ themeLayout: layout === 'mini' ? 'vertical' : 'mini' })}
              sx={{
                position: 'absolute',
                top: 28,
                right: -13,
                width: 26,
                height: 26,
                border: `1px solid ${theme.palette.divider}`,
                bgcolor: 'background.default',
                '&:hover': { bgcolor: 'background.default' },
              }}
            >
              {layout === 'mini' ? <ChevronRightIcon fontSize="small" /> : <ChevronLeftIcon fontSize="small" />}
            </IconButton>
          </Tooltip>
          <Box sx={{ flexGrow: 1, overflowY: 'auto', pb: 2 }}>
            {layout === 'mini' ? <NavSectionMini data={data} /> : <NavSectionVertical data={data} />}
          </Box>
        </Box>
      ) : null}

      {!lgUp ? (
        <Drawer open={mobileOpen} onClose={() => setMobileOpen(false)} slotProps={{ paper: { sx: { width: LAYOUT.navVertical } } }}>
          <Box sx={{ pt: 2.5, pb: 2, px: 3 }}>
            <Logo />
          </Box>
          <NavSectionVertical data={data} onNavigate={() => setMobileOpen(false)} />
        </Drawer>
      ) : null}

      <Box
        component="main"
        sx={{
          flexGrow: 1,
          display: 'flex',
          flexDirection: 'column',
          pl: { lg: `${navWidth}px` },
          pt: `${(lgUp ? LAYOUT.headerDesktop : LAYOUT.headerMobile) + (layout === 'horizontal' && lgUp ? LAYOUT.navHorizontal + 24 : 8)}px`,
          pb: 8,
          transition: theme.transitions.create('padding'),
        }}
      >
        <Container maxWidth={stretched ? false : 'lg'} sx={{ px: { lg: 5 } }}>
          <RouteGate>
            <Outlet />
          </RouteGate>
        </Container>
      </Box>

      <SettingsDrawer />
    </Box>
  );
}
