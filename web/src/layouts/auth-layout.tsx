import { Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { paths } from '../routes/paths';
import { GuestLanguageSwitcher } from './guest-language-switcher';
import { Logo } from './logo';

function Illustration() {
  return (
    <Box component="svg" viewBox="0 0 320 240" aria-hidden sx={{ width: 1, maxWidth: 420, color: 'primary.main' }}>
      <rect x="40" y="30" width="110" height="180" rx="14" fill="currentColor" opacity="0.16" />
      <rect x="52" y="44" width="86" height="88" rx="8" fill="currentColor" opacity="0.32" />
      {[0, 1, 2].map((row) =>
        [0, 1, 2].map((col) => (
          <rect key={`${row}-${col}`} x={60 + col * 26} y={52 + row * 26} width="18" height="18" rx="4" fill="currentColor" opacity="0.7" />
        )),
      )}
      <rect x="52" y="146" width="50" height="12" rx="6" fill="currentColor" opacity="0.5" />
      <circle cx="124" cy="152" r="8" fill="currentColor" opacity="0.6" />
      <rect x="52" y="172" width="86" height="24" rx="6" fill="currentColor" opacity="0.24" />
      <rect x="170" y="70" width="120" height="80" rx="12" fill="currentColor" opacity="0.12" />
      <polyline points="182,132 206,110 228,120 254,92 278,100" fill="none" stroke="currentColor" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
      <rect x="170" y="160" width="56" height="50" rx="10" fill="currentColor" opacity="0.2" />
      <rect x="234" y="160" width="56" height="50" rx="10" fill="currentColor" opacity="0.3" />
    </Box>
  );
}

/** Split layout of the public screens: a brand panel on large screens, the form beside it. */
export function AuthLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const register = pathname.startsWith(paths.auth.register);
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex' }}>
      <Box
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 5,
          px: 3,
          width: 1,
          maxWidth: 480,
          bgcolor: (theme) => alpha(theme.palette.grey[500], 0.06),
        }}
      >
        <Typography
          variant="h3"
          component={register ? 'h1' : 'p'}
          data-testid={register ? 'register-title' : undefined}
          sx={{ textAlign: 'center', maxWidth: 360 }}
        >
          {register ? t('auth.registerTitle') : t('auth.loginSubtitle')}
        </Typography>
        <Illustration />
      </Box>
      <Box sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', p: { xs: 2, md: 3 } }}>
          <Logo />
          <GuestLanguageSwitcher />
        </Box>
        <Box sx={{ flexGrow: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', px: 2, py: 5 }}>
          <Box sx={{ width: 1, maxWidth: 420 }}>
            <Outlet />
          </Box>
        </Box>
      </Box>
    </Box>
  );
}
