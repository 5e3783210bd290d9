import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { paths } from '../routes/paths';

/** Brand mark: a stylised vending machine in the primary colour. */
export function Logo({ withText = true }: { withText?: boolean }) {
  return (
    <Box component={RouterLink} to={paths.dashboard.root} aria-label="Vendfleet" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, color: 'text.primary', textDecoration: 'none' }}>
      <Box component="svg" viewBox="0 0 64 64" sx={{ width: 36, height: 36, color: 'primary.main', flexShrink: 0 }}>
        <rect width="64" height="64" rx="14" fill="currentColor" />
        <rect x="18" y="12" width="28" height="40" rx="4" fill="#fff" />
        <rect x="22" y="17" width="20" height="18" rx="2" fill="currentColor" opacity="0.35" />
        <rect x="22" y="39" width="12" height="4" rx="2" fill="currentColor" />
        <circle cx="39" cy="41" r="2.5" fill="currentColor" />
      </Box>
      {withText ? (
        <Typography variant="h6" component="span" sx={{ fontWeight: 800, letterSpacing: -0.2 }}>
          Vendfleet
        </Typography>
      ) : null}
    </Box>
  );
}
