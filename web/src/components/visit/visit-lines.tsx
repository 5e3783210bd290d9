// The visit form's selections (the planned route's dialog, the refiller's phone): per selection
// what was found, filled and removed with its reason, then the cash.
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import type { PicklistLine } from '../../api/types';
import { SelectInput, TextInput } from '../form';
import { formatCount } from '../format';
import { REMOVED_REASONS, type VisitValues } from './visit-rules';

type Size = 'small' | 'medium';

const numeric = { inputMode: 'numeric', pattern: '[0-9]*' } as const;

function LineInputs({ index, line, size }: { index: number; line: PicklistLine; size: Size }) {
  const { t, i18n } = useTranslation();
  const removed = useWatch<VisitValues, `lines.${number}.removed`>({ name: `lines.${index}.removed` });
  const anyRemoved = /^\d+$/.test(removed ?? '') && Number(removed) > 0;
  const input = (field: 'found' | 'filled' | 'removed', label: string) => (
    <TextInput
      name={`lines.${index}.${field}`}
      label={label}
      size={size}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { ...numeric, 'data-testid': `visit-${field}-${line.selection}` } }}
    />
  );
  return (
    <Box
      data-testid={`visit-line-${line.selection}`}
      sx={{ display: 'grid', gap: 1.5, alignItems: 'start', py: 1.5, borderBottom: 1, borderColor: 'divider', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, minmax(0, 1fr))', lg: 'minmax(0, 2fr) repeat(4, minmax(0, 1fr))' } }}
    >
      <Box sx={{ gridColumn: { xs: '1 / -1', lg: 'auto' } }}>
        <Typography variant="subtitle2">
          {line.selection} · {line.product_name}
        </Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('plannedRoutes.visitForm.lineHint', {
            max: formatCount(line.max, i18n.language),
            predicted: formatCount(line.predicted_at_visit, i18n.language),
            toBring: formatCount(line.to_bring, i18n.language),
          })}
        </Typography>
      </Box>
      {input('found', t('plannedRoutes.found'))}
      {input('filled', t('plannedRoutes.filled'))}
      {input('removed', t('plannedRoutes.removed'))}
      <SelectInput name={`lines.${index}.removed_reason`} label={t('plannedRoutes.visitForm.reason')} size={size} disabled={!anyRemoved} testId={`visit-reason-${line.selection}`}>
        <MenuItem value="">{t('plannedRoutes.visitForm.noReason')}</MenuItem>
        {REMOVED_REASONS.map((reason) => (
          <MenuItem key={reason} value={reason}>
            {t(`plannedRoutes.reasons.${reason}`)}
          </MenuItem>
        ))}
      </SelectInput>
    </Box>
  );
}

/** The cash bag and the cash collected (in the stop's currency), side by side from a tablet up. */
export function VisitCash({ currency }: { currency: string }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
      <TextInput name="cash_bag" label={t('plannedRoutes.cashBag')} slotProps={{ htmlInput: { 'data-testid': 'visit-cash-bag' } }} />
      <TextInput
        name="collected"
        label={t('plannedRoutes.visitForm.collected', { currency })}
        helperText={t('plannedRoutes.visitForm.collectedHint')}
        slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'visit-collected' } }}
      />
    </Box>
  );
}

/** Every line of the stop's picklist; `medium` gives a phone's touch targets. */
export function VisitLines({ lines, size = 'small' }: { lines: readonly PicklistLine[]; size?: Size }) {
  return (
    <Box>
      {lines.map((line, index) => (
        <LineInputs key={line.selection} index={index} line={line} size={size} />
      ))}
    </Box>
  );
}
