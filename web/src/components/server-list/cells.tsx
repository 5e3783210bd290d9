import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link, { type LinkProps } from '@mui/material/Link';

/** A row's tags as small chips (machines, products). */
export function TagChips({ tags }: { tags: { id: string; name: string }[] }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, py: 1 }}>
      {tags.map((item) => (
        <Chip key={item.id} label={item.name} size="small" variant="outlined" />
      ))}
    </Box>
  );
}

/** "Active" (green) or "Inactive". */
export function StatusChip({ inactive }: { inactive: boolean }) {
  const { t } = useTranslation();
  return <Chip size="small" variant="outlined" color={inactive ? 'default' : 'success'} label={inactive ? t('common.inactive') : t('common.active')} />;
}

interface RowOpenLinkProps {
  /** Its aria-label: what opens. */
  label: string;
  onOpen: () => void;
  variant?: LinkProps['variant'];
  /** One line, cut with an ellipsis. */
  ellipsis?: boolean;
  children: ReactNode;
}

/**
 * A cell's text as a button that opens the row's detail: the keyboard's way to what a click on the
 * row does (the click does not reach the row a second time).
 */
export function RowOpenLink({ label, onOpen, variant, ellipsis, children }: RowOpenLinkProps) {
  return (
    <Link
      component="button"
      type="button"
      underline="hover"
      color="inherit"
      variant={variant}
      aria-label={label}
      onClick={(event) => {
        event.stopPropagation();
        onOpen();
      }}
      sx={{ textAlign: 'left', ...(ellipsis ? { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } : {}) }}
    >
      {children}
    </Link>
  );
}
