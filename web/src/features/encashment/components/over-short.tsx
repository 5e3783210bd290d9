import { useTranslation } from 'react-i18next';
import Tooltip from '@mui/material/Tooltip';
import { formatMoney, REPORT_CURRENCY } from '../../../components/money';
import { Spoken } from '../../../components/spoken';
import { SignedMoneyChip } from '../../../components/reports/signed-money';
import { overShortTone } from '../encashment-logic';

/** A collection's (or a sum's) over or short, coloured; "—" when there was nothing to compare with. */
export function OverShort({ minor, currency = REPORT_CURRENCY }: { minor: number | null | undefined; currency?: string }) {
  const { t, i18n } = useTranslation();
  const tone = overShortTone(minor);
  if (minor === null || minor === undefined) {
    return (
      <Spoken text={t('encashment.notCompared')}>
        <Tooltip title={t('encashment.notCompared')}>
          <span data-tone={tone} data-testid="over-short">
            —
          </span>
        </Tooltip>
      </Spoken>
    );
  }
  const amount = formatMoney(Math.abs(minor), currency, i18n.language);
  const spoken = tone === 'short' ? t('encashment.shortBy', { amount }) : tone === 'over' ? t('encashment.overBy', { amount }) : t('encashment.exact');
  return <SignedMoneyChip minor={minor} currency={currency} spoken={spoken} tone={tone} testId="over-short" />;
}
