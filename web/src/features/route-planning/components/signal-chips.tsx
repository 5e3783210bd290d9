import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { formatDecimal } from '../../../components/format';
import { formatMoney } from '../../../components/money';
import type { RankedMachine } from '../../../api/types';
import { signalChips, type SignalChip } from '../planning-logic';

/** Why a machine needs a visit: a chip per signal, then its cash against the collection amount and the age of its last reading. */
export function SignalChips({ row }: { row: RankedMachine }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const label = (chip: SignalChip) => {
    if (chip.key === 'cashCollect') return t('routePlanning.signals.cashCollect');
    if (chip.key === 'daysToEmpty') return t('routePlanning.signals.daysToEmpty', { days: formatDecimal(chip.days, language) });
    return t(`routePlanning.signalCounts.${chip.key}`, { count: chip.count });
  };
  const { signals } = row;
  const money = (minor: number) => formatMoney(minor, row.currency, language);
  const facts = [
    typeof signals.cash_box_minor === 'number' ? t('routePlanning.cashAgainst', { cash: money(signals.cash_box_minor), threshold: money(signals.auto_collect_minor) }) : null,
    typeof signals.last_reading_hours === 'number'
      ? t('routePlanning.lastReading', { hours: formatDecimal(signals.last_reading_hours, language, 0) })
      : t('routePlanning.neverRead'),
  ].filter(Boolean);
  return (
    <Box sx={{ py: 1, minWidth: 0 }} data-testid="signals">
      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
        {signalChips(row).map((chip) => (
          <Chip
            key={chip.key}
            size="small"
            variant={chip.severity === 'default' ? 'outlined' : 'filled'}
            color={chip.severity === 'default' ? 'default' : chip.severity}
            label={label(chip)}
            data-testid={`signal-${chip.key}`}
          />
        ))}
      </Box>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 0.5 }}>
        {facts.join(' · ')}
      </Typography>
    </Box>
  );
}
