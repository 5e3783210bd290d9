import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { NEED_PALETTE, needLevel } from '../planning-logic';

/** A machine's need level (now red, soon orange, later green) and, when it has gone quiet, "Offline". */
export function NeedChips({ need, offline }: { need: string; offline: boolean }) {
  const { t } = useTranslation();
  const level = needLevel(need);
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      <Chip size="small" color={level ? NEED_PALETTE[level] : 'default'} label={level ? t(`routePlanning.needs.${level}`) : need} data-testid="need-chip" data-need={need} />
      {offline ? <Chip size="small" variant="outlined" label={t('routePlanning.offline')} data-testid="offline-chip" /> : null}
    </Box>
  );
}
