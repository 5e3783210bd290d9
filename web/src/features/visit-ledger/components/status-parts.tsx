import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import CheckIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import FirstIcon from '@mui/icons-material/FiberNewOutlined';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import WarningIcon from '@mui/icons-material/ReportProblemOutlined';
import type { VisitStatus } from '../../../api/types';
import { NO_FIGURE } from '../../../components/reports/report-columns';
import { SignedMoneyChip } from '../../../components/reports/signed-money';
import { Spoken } from '../../../components/spoken';
import { isStatus, STATUS_COLOR, varianceText } from '../visit-ledger-logic';

const STATUS_ICON = { unexplained: <WarningIcon />, explained: <InfoIcon />, matched: <CheckIcon />, first: <FirstIcon /> } as const;

/** A line's status in words on a chip with its icon: an unexplained variance filled in red, never by its colour alone. */
export function StatusChip({ status }: { status: VisitStatus | string }) {
  const { t } = useTranslation();
  if (!isStatus(status)) return <span>{status}</span>;
  return (
    <Chip
      size="small"
      icon={STATUS_ICON[status]}
      color={STATUS_COLOR[status]}
      variant={status === 'unexplained' || status === 'explained' ? 'filled' : 'outlined'}
      label={t(`visitLedger.status.${status}`)}
      data-status={status}
      data-testid="visit-status"
    />
  );
}

/** Counted less cash sales, signed on a chip coloured by its sign and said in words; "—" for a first collection. */
export function Variance({ minor, currency }: { minor: number | null | undefined; currency: string }) {
  const { t, i18n } = useTranslation();
  const spoken = varianceText(t, minor, currency, i18n.language);
  if (minor === null || minor === undefined) {
    return (
      <Spoken text={spoken}>
        <span title={spoken} data-testid="visit-variance">
          {NO_FIGURE}
        </span>
      </Spoken>
    );
  }
  return <SignedMoneyChip minor={minor} currency={currency} spoken={spoken} testId="visit-variance" />;
}
