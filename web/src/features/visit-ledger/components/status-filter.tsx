import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import WarningIcon from '@mui/icons-material/ReportProblemOutlined';
import type { VisitStatus } from '../../../api/types';
import { formatCount } from '../../../components/format';
import { STATUSES } from '../visit-ledger-logic';

interface StatusFilterProps {
  /** Lines of each status in the filters (from the summary); none while it loads. */
  counts: Record<VisitStatus, number> | undefined;
  total: number | undefined;
  chosen: readonly VisitStatus[];
  /** A status chip pressed or released; none: "All". */
  onToggle: (status: VisitStatus | null) => void;
}

/**
 * The status counts as chips that filter the ledger (several may be pressed; "All" releases
 * them). The unexplained one is red as soon as it counts any line: it is what needs a look.
 */
export function StatusFilter({ counts, total, chosen, onToggle }: StatusFilterProps) {
  const { t, i18n } = useTranslation();
  const count = (value: number | undefined) => (value === undefined ? '…' : formatCount(value, i18n.language));
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }} role="group" aria-label={t('visitLedger.statusFilter')} data-testid="visit-status-filter">
      <Chip
        label={t('visitLedger.statusCount', { status: t('visitLedger.allStatuses'), count: count(total) })}
        color={chosen.length === 0 ? 'primary' : 'default'}
        variant={chosen.length === 0 ? 'filled' : 'outlined'}
        aria-pressed={chosen.length === 0}
        onClick={() => onToggle(null)}
        data-testid="visit-status-all"
      />
      {STATUSES.map((status) => {
        const pressed = chosen.includes(status);
        const alarming = status === 'unexplained' && (counts?.unexplained ?? 0) > 0;
        return (
          <Chip
            key={status}
            icon={status === 'unexplained' ? <WarningIcon /> : undefined}
            label={t('visitLedger.statusCount', { status: t(`visitLedger.status.${status}`), count: count(counts?.[status]) })}
            color={pressed ? 'primary' : alarming ? 'error' : 'default'}
            variant={pressed || alarming ? 'filled' : 'outlined'}
            aria-pressed={pressed}
            onClick={() => onToggle(status)}
            data-testid={`visit-status-${status}`}
          />
        );
      })}
    </Stack>
  );
}
