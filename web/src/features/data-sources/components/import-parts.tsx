import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { HistoryImport } from '../../../api/types';
import { isStatus, NAYAX_READING, STATUS_COLOR } from '../import-logic';

/** An import's status, in words on a coloured chip (an unknown one as it came). */
export function ImportStatusChip({ status }: { status: string }) {
  const { t } = useTranslation();
  if (!isStatus(status)) return <Chip size="small" label={status} data-testid="import-status" data-status={status} />;
  return <Chip size="small" color={STATUS_COLOR[status]} label={t(`dataSources.imports.status.${status}`)} data-testid="import-status" data-status={status} />;
}

/** How an import's file is read: Nayax Core's export (in the UI's language) or the mapping's name. */
export function useReadingName() {
  const { t } = useTranslation();
  return (item: Pick<HistoryImport, 'mapping_id' | 'mapping_name'>) => (item.mapping_id === NAYAX_READING ? t('dataSources.imports.nayax') : item.mapping_name || item.mapping_id);
}

/** A determinate bar, named (what it measures), its figure beside it. */
export function NamedProgress({ value, label, text, testId }: { value: number; label: string; text: string; testId?: string }) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, width: 1, minWidth: 0 }} data-testid={testId}>
      <LinearProgress variant="determinate" value={clamped} aria-label={label} sx={{ flexGrow: 1, borderRadius: 1, height: 6 }} />
      <Typography variant="caption" sx={{ flexShrink: 0, minWidth: 36, textAlign: 'right' }}>
        {text}
      </Typography>
    </Box>
  );
}

/** A figure over its label, in a description list; coloured when it asks for a look. */
export function Figure({ label, children, tone, testId }: { label: string; children: ReactNode; tone?: 'warning' | 'error'; testId: string }) {
  return (
    <Box sx={{ minWidth: 0 }} data-testid={testId}>
      <Typography variant="caption" component="dt" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography variant="h6" component="dd" sx={{ m: 0, overflowWrap: 'anywhere', color: tone ? `${tone}.main` : 'text.primary' }}>
        {children}
      </Typography>
    </Box>
  );
}

/** The figures' list: two a line on a phone, four from `sm`. */
export const FIGURES_SX = { m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' } } as const;
