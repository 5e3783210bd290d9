import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import { formatMoney } from '../../../components/money';
import { SignedMoneyChip } from '../../../components/reports/signed-money';
import { isStatus, STATUS_COLOR } from '../settlements-logic';

/** A machine-day's status, in words on a coloured chip. */
export function StatusChip({ status }: { status: string }) {
  const { t } = useTranslation();
  if (!isStatus(status)) return <span>{status}</span>;
  return <Chip size="small" color={STATUS_COLOR[status]} variant={status === 'matched' ? 'outlined' : 'filled'} label={t(`settlements.status.${status}`)} data-status={status} data-testid="settlement-status" />;
}

/** Settled gross less card sales, signed ("+€2.00", "-€1.50"), with a sentence for screen readers. */
export function Difference({ minor, currency }: { minor: number; currency: string }) {
  const { t, i18n } = useTranslation();
  const amount = formatMoney(Math.abs(minor), currency, i18n.language);
  const spoken = minor < 0 ? t('settlements.shortBy', { amount }) : minor > 0 ? t('settlements.overBy', { amount }) : t('settlements.exact');
  return <SignedMoneyChip minor={minor} currency={currency} spoken={spoken} testId="settlement-difference" />;
}
