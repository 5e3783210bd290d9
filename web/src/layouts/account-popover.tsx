import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Typography from '@mui/material/Typography';
import { useAuth } from '../auth/context';
import { paths } from '../routes/paths';
import { AnchoredPopover, usePopover } from './anchored-popover';
import { LAYOUT } from './config';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}

/** User menu: display name, e-mail, the account page and Logout (which returns to the root). */
export function AccountPopover() {
  const { t } = useTranslation();
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const menu = usePopover();
  const displayName = user?.displayName || user?.name || '';

  const onLogout = async () => {
    menu.close();
    navigate(paths.root, { replace: true });
    await logout();
  };

  return (
    <>
      <IconButton aria-label={t('header.account')} data-testid="account-button" onClick={menu.open} sx={{ p: 0.25 }}>
        <Avatar src={user?.photoURL ?? undefined} alt={displayName} sx={{ width: 36, height: 36, bgcolor: 'primary.main', fontSize: 14 }}>
          {initials(displayName)}
        </Avatar>
      </IconButton>
      <AnchoredPopover popover={menu} paperSx={{ width: LAYOUT.accountMenuWidth, p: 0 }}>
        <Box sx={{ p: 2, pb: 1.5 }}>
          <Typography variant="subtitle2" noWrap data-testid="account-name">
            {displayName}
          </Typography>
          <Typography variant="body2" noWrap sx={{ color: 'text.secondary' }}>
            {user?.email}
          </Typography>
        </Box>
        <Divider sx={{ borderStyle: 'dashed' }} />
        <MenuList sx={{ p: 1 }}>
          <MenuItem
            data-testid="account-link"
            onClick={() => {
              menu.close();
              navigate(paths.account);
            }}
            sx={{ borderRadius: 0.75, typography: 'body2' }}
          >
            {t('header.account')}
          </MenuItem>
          <MenuItem data-testid="logout" onClick={() => void onLogout()} sx={{ borderRadius: 0.75, typography: 'body2', color: 'error.main', fontWeight: 600 }}>
            {t('header.logout')}
          </MenuItem>
        </MenuList>
      </AnchoredPopover>
    </>
  );
}
