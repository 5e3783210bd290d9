import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { NeedLevel } from '../api/types';

const COLOR: Record<NeedLevel, 'error' | 'warning' | 'success'> = { now: 'error', soon: 'warning', later: 'success' };

/** A machine's need level (now red, soon orange, later green) and, when it has gone quiet, "Offline". */
export function NeedChips({ need, offline }: { need: NeedLevel; offline: boolean }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      <Chip size="small" color={COLOR[need] ?? 'default'} label={t(`routePlanning.needs.${need}`)} data-testid="need-chip" data-need={need} />
      {offline ? <Chip size="small" variant="outlined" label={t('routePlanning.offline')} data-testid="offline-chip" /> : null}
    </Box>
  );
}
