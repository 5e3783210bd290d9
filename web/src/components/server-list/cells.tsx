import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';

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
