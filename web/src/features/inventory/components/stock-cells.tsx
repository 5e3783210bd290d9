import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { formatDate } from '../../../components/format';
import { EXPIRY_COLOR, expiryTone, fillRatio, localToday } from '../inventory-logic';

/** An expiry date, red when passed and amber when near; "—" without one. */
export function ExpiryCell({ date }: { date: string | null | undefined }) {
  const { t, i18n } = useTranslation();
  const tone = expiryTone(date, localToday());
  if (tone === 'none') return <span>—</span>;
  const title = tone === 'expired' ? t('inventory.expired') : tone === 'soon' ? t('inventory.expiresSoon') : undefined;
  return (
    <Typography variant="body2" component="span" title={title} data-tone={tone} sx={{ color: EXPIRY_COLOR[tone], fontWeight: tone === 'ok' ? undefined : 600 }}>
      {formatDate(date, i18n.language)}
    </Typography>
  );
}

/** How full: a bar and the percentage of the capacity. */
export function FillCell({ quantity, capacity }: { quantity: number; capacity: number }) {
  const { i18n } = useTranslation();
  const ratio = fillRatio(quantity, capacity);
  const color = ratio === 0 ? 'error' : ratio < 0.25 ? 'warning' : 'primary';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, width: 1 }}>
      <LinearProgress variant="determinate" value={ratio * 100} color={color} sx={{ flex: 1, height: 6, borderRadius: 1 }} aria-hidden />
      <Typography variant="caption" sx={{ minWidth: 36, textAlign: 'right' }}>
        {new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(ratio)}
      </Typography>
    </Box>
  );
}

/** A count of selections needing a visit: coloured when there are any. */
export function AlertCount({ count, color }: { count: number; color: 'error' | 'warning' }) {
  const { i18n } = useTranslation();
  if (count === 0) return <span>0</span>;
  return <Chip size="small" color={color} label={new Intl.NumberFormat(i18n.language).format(count)} />;
}

/** A selection's state: sold out, low or fine. */
export function SelectionState({ soldOut, low }: { soldOut: boolean; low: boolean }) {
  const { t } = useTranslation();
  if (soldOut) return <Chip size="small" color="error" label={t('inventory.soldOut')} />;
  if (low) return <Chip size="small" color="warning" label={t('inventory.low')} />;
  return <Chip size="small" variant="outlined" color="success" label={t('inventory.ok')} />;
}
