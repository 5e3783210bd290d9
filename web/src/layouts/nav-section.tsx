import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import type { PopoverProps } from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { alpha, type CSSObject, type Theme } from '@mui/material/styles';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { AnchoredPopover, usePopover, type PopoverState } from './anchored-popover';
import type { NavGroup, NavItem } from './nav-config';
import { LAYOUT } from './config';

function isActive(pathname: string, item: NavItem): boolean {
  if (pathname === item.path || pathname.startsWith(`${item.path}/`)) return true;
  return (item.children ?? []).some((child) => isActive(pathname, child));
}

function ItemLabel({ item, depth }: { item: NavItem; depth: number }) {
  const { t } = useTranslation();
  return (
    <Box component="span" sx={{ flexGrow: 1, minWidth: 0, textAlign: 'start' }}>
      {/* A long title ("Journal des réapprovisionnements") wraps onto a second line, never cut. */}
      <Typography component="span" variant="body2" sx={{ display: 'block', fontWeight: depth === 0 ? 600 : 500, lineHeight: 1.3, overflowWrap: 'break-word' }}>
        {t(item.title)}
      </Typography>
      {item.caption ? (
        <Typography component="span" variant="caption" noWrap sx={{ display: 'block', color: 'text.secondary' }}>
          {t(item.caption)}
        </Typography>
      ) : null}
    </Box>
  );
}

const itemSx = (active: boolean, depth: number) =>
  ({
    width: 1,
    minHeight: depth === 0 ? 44 : 36,
    px: 1.5,
    py: 0.5,
    gap: 1.5,
    borderRadius: 1,
    justifyContent: 'flex-start',
    color: active ? (depth === 0 ? 'primary.main' : 'text.primary') : 'text.secondary',
    bgcolor: (theme: Theme) => (active && depth === 0 ? alpha(theme.palette.primary.main, 0.08) : 'transparent'),
    '&:hover': { bgcolor: (theme: Theme) => (active && depth === 0 ? alpha(theme.palette.primary.main, 0.16) : theme.palette.action.hover) },
  }) as const;

function VerticalItem({ item, depth, onNavigate }: { item: NavItem; depth: number; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const active = isActive(pathname, item);
  const [open, setOpen] = useState(active);
  const hasChildren = (item.children?.length ?? 0) > 0;

  if (hasChildren) {
    return (
      <li>
        <ButtonBase aria-expanded={open} onClick={() => setOpen((value) => !value)} sx={itemSx(active, depth)} disabled={item.disabled}>
          {item.icon ? <Box sx={{ display: 'flex', '& svg': { fontSize: 22 } }}>{item.icon}</Box> : null}
          <ItemLabel item={item} depth={depth} />
          {item.info}
          <ExpandMoreIcon fontSize="small" sx={{ transition: 'transform .2s', transform: open ? 'none' : 'rotate(-90deg)' }} />
        </ButtonBase>
        <Collapse in={open} unmountOnExit>
          <List disablePadding sx={{ pl: 2, mt: 0.5, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
            {item.children?.map((child) => (
              <VerticalItem key={child.path} item={child} depth={depth + 1} onNavigate={onNavigate} />
            ))}
          </List>
        </Collapse>
      </li>
    );
  }

  return (
    <li>
      <ButtonBase
        component={RouterLink}
        to={item.path}
        onClick={onNavigate}
        aria-current={active ? 'page' : undefined}
        sx={itemSx(active, depth)}
        disabled={item.disabled}
      >
        {item.icon ? (
          <Box sx={{ display: 'flex', '& svg': { fontSize: 22 } }}>{item.icon}</Box>
        ) : (
          <Box
            component="span"
            sx={{ width: 6, height: 6, mx: 0.75, borderRadius: '50%', bgcolor: active ? 'primary.main' : 'text.disabled', flexShrink: 0 }}
          />
        )}
        <ItemLabel item={item} depth={depth} />
        {item.info}
      </ButtonBase>
    </li>
  );
}

/** Vertical menu: groups under subheaders, parents fold open. */
export function NavSectionVertical({ data, onNavigate }: { data: NavGroup[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return (
    <Box component="nav" aria-label="main" sx={{ px: 2 }}>
      {data.map((group) => (
        <List
          key={group.subheader}
          disablePadding
          sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, mb: 2 }}
          subheader={
            <ListSubheader
              disableSticky
              sx={{ px: 1.5, lineHeight: '32px', fontSize: 11, fontWeight: 700, textTransform: 'uppercase', bgcolor: 'transparent', color: 'text.secondary' }}
            >
              {t(group.subheader)}
            </ListSubheader>
          }
        >
          {group.items.map((item) => (
            <VerticalItem key={item.path} item={item} depth={0} onNavigate={onNavigate} />
          ))}
        </List>
      ))}
    </Box>
  );
}

function ChildrenMenu({ item, popover, placement }: { item: NavItem; popover: PopoverState; placement: MenuPlacement }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <AnchoredPopover popover={popover} paperSx={{ minWidth: LAYOUT.menuWidth, p: 0.5 }} {...placement}>
      <MenuList disablePadding>
      {item.children?.map((child) => (
        <MenuItem
          key={child.path}
          component={RouterLink}
          to={child.path}
          onClick={popover.close}
          selected={isActive(pathname, child)}
          sx={{ borderRadius: 0.75, typography: 'body2' }}
        >
          {t(child.title)}
        </MenuItem>
      ))}
      </MenuList>
    </AnchoredPopover>
  );
}

/** Where a parent's menu opens on it. */
type MenuPlacement = Pick<PopoverProps, 'anchorOrigin' | 'transformOrigin'>;

/** How the items of a menu whose parents open a popover (mini, horizontal) look. */
interface ItemLook {
  sx: CSSObject;
  label: (title: string) => ReactNode;
  /** After a parent's label. */
  expandIcon: ReactNode;
  placement: MenuPlacement;
}

/** An item of the mini or horizontal menu: a link, or a parent whose children open in a menu. */
function PopoverItem({ item, look }: { item: NavItem; look: ItemLook }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const menu = usePopover();
  const active = isActive(pathname, item);
  const sx = {
    ...look.sx,
    borderRadius: 1,
    color: active ? 'primary.main' : 'text.secondary',
    bgcolor: (theme: Theme) => (active ? alpha(theme.palette.primary.main, 0.08) : 'transparent'),
  } as const;
  const label = look.label(t(item.title));
  if (item.children?.length) {
    return (
      <li>
        <ButtonBase aria-haspopup="menu" onClick={menu.open} sx={sx}>
          {item.icon}
          {label}
          {look.expandIcon}
        </ButtonBase>
        <ChildrenMenu item={item} popover={menu} placement={look.placement} />
      </li>
    );
  }
  return (
    <li>
      <ButtonBase component={RouterLink} to={item.path} aria-current={active ? 'page' : undefined} sx={sx}>
        {item.icon}
        {label}
      </ButtonBase>
    </li>
  );
}

const miniLook: ItemLook = {
  sx: { width: 1, py: 1, px: 0.5, flexDirection: 'column', gap: 0.5, '& svg': { fontSize: 22 } },
  label: (title) => (
    <Typography component="span" variant="caption" sx={{ fontSize: 10, fontWeight: 600, lineHeight: 1.2, textAlign: 'center' }}>
      {title}
    </Typography>
  ),
  expandIcon: <ChevronRightIcon sx={{ position: 'absolute', right: 2, top: 10, fontSize: '14px !important' }} />,
  placement: { anchorOrigin: { vertical: 'top', horizontal: 'right' }, transformOrigin: { vertical: 'top', horizontal: 'left' } },
};

/** Mini menu: icons with short labels; a parent's children open in a menu. */
export function NavSectionMini({ data }: { data: NavGroup[] }) {
  return (
    <Box component="nav" aria-label="main" sx={{ px: 0.75 }}>
      <List disablePadding sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        {data.flatMap((group) => group.items).map((item) => (
          <PopoverItem key={item.path} item={item} look={miniLook} />
        ))}
      </List>
    </Box>
  );
}

const horizontalLook: ItemLook = {
  sx: { px: 1.5, height: 36, gap: 1, typography: 'body2', fontWeight: 600, '& svg': { fontSize: 20 } },
  label: (title) => title,
  expandIcon: <ExpandMoreIcon fontSize="small" />,
  placement: { anchorOrigin: { vertical: 'bottom', horizontal: 'left' }, transformOrigin: { vertical: 'top', horizontal: 'left' } },
};

/** Horizontal menu: one bar under the header, parents open a menu. */
export function NavSectionHorizontal({ data }: { data: NavGroup[] }) {
  return (
    <Box component="nav" aria-label="main">
      <Box component="ul" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, listStyle: 'none', m: 0, p: 0 }}>
        {data.flatMap((group) => group.items).map((item) => (
          <PopoverItem key={item.path} item={item} look={horizontalLook} />
        ))}
      </Box>
    </Box>
  );
}
