import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Avatar from '@mui/material/Avatar';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Tooltip from '@mui/material/Tooltip';
import { useAuth } from '../auth/context';
import { toast } from '../components/snackbar';
import { LANGUAGES, type UiLanguage } from '../locales/i18n';
import { AnchoredPopover, usePopover } from './anchored-popover';
import { LAYOUT } from './config';

/** Header language switcher: the UI changes at once, the choice is saved for the signed-in user. */
export function LanguagePopover() {
  const { t, i18n } = useTranslation();
  const { switchLanguage } = useAuth();
  const menu = usePopover();
  const menuId = useId();
  const current = LANGUAGES.find((language) => language.code === i18n.language) ?? LANGUAGES[0];

  const choose = async (code: UiLanguage) => {
    menu.close();
    try {
      await switchLanguage(code);
    } catch (error) {
      toast.error(error instanceof Error && error.message ? error.message : t('errors.generic'));
    }
  };

  return (
    <>
      <Tooltip title={t('header.language')}>
        <IconButton
          // The name holds what the button shows (a parenthesis does not count as that).
          aria-label={`${t('header.language')}: ${current.short} (${current.label})`}
          data-testid="language-button"
          aria-haspopup="menu"
          aria-expanded={Boolean(menu.anchor)}
          aria-controls={menu.anchor ? menuId : undefined}
          onClick={menu.open}
          sx={{ width: 40, height: 40 }}
        >
          <Avatar
            variant="rounded"
            sx={{ width: 28, height: 22, fontSize: 11, fontWeight: 700, bgcolor: 'primary.main', color: 'primary.contrastText' }}
          >
            {current.short}
          </Avatar>
        </IconButton>
      </Tooltip>
      <AnchoredPopover popover={menu} paperSx={{ width: LAYOUT.menuWidth, p: 0.5 }}>
        {/* A menu button's menu: open, the focus is on the language in use and the arrows move it. */}
        <MenuList id={menuId} autoFocusItem={Boolean(menu.anchor)} disablePadding>
        {LANGUAGES.map((language) => (
          <MenuItem
            key={language.code}
            lang={language.code}
            data-testid={`language-${language.code}`}
            selected={language.code === current.code}
            onClick={() => void choose(language.code)}
            sx={{ gap: 1.5, borderRadius: 0.75, typography: 'body2' }}
          >
            <Avatar variant="rounded" sx={{ width: 26, height: 20, fontSize: 10, fontWeight: 700 }}>
              {language.short}
            </Avatar>
            {language.label}
          </MenuItem>
        ))}
        </MenuList>
      </AnchoredPopover>
    </>
  );
}
