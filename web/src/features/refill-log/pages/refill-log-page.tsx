import { useTranslation } from 'react-i18next';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useReportPermission } from '../../../auth/use-permission';
import { ExportMenu } from '../../../components/export-menu';
import { formatPeriodDate } from '../../../components/format';
import { usePeriodPresets } from '../../../components/report-filters/report-filter-api';
import { REFILL_CONTROLS, REFILL_SINGLE, useReportFilters } from '../../../components/report-filters/report-filter-state';
import { ReportScreen } from '../../../components/reports/report-screen';
import { RetryAlert } from '../../../components/retry-alert';
import { exportRefills, refillQuery } from '../api/refill-log';
import { RefillList } from '../components/refill-list';
import { RefillTotals } from '../components/refill-totals';

/** Refill log: what the refillers (and the machines) added and removed, by product and line by line. */
export default function RefillLogPage() {
  const { t, i18n } = useTranslation();
  const allowed = useReportPermission('refill_log');
  const state = useReportFilters(REFILL_CONTROLS);
  const presets = usePeriodPresets();
  const refill = refillQuery(state.filters, presets.data);
  const action = allowed('export') ? (
    <ExportMenu testId="refill-export" disabled={!refill || state.problem !== null} onExport={async (format) => (refill ? exportRefills(format, refill.query) : undefined)} />
  ) : null;

  let body;
  if (presets.isError) {
    body = (
      <RetryAlert testId="refill-presets-error" onRetry={() => void presets.refetch()}>
        {t('refillLog.loadFailed')}
      </RetryAlert>
    );
  } else if (!refill) {
    body = <Skeleton variant="rounded" height={320} />;
  } else {
    const span = (date: string) => formatPeriodDate(date, 'span', i18n.language);
    body = (
      <>
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="refill-span">
          {t('refillLog.span', { from: span(refill.from), to: span(refill.to) })}
        </Typography>
        {allowed('total_list') ? <RefillTotals query={refill.query} /> : null}
        {allowed('list') ? <RefillList query={refill.query} /> : null}
      </>
    );
  }
  return (
    <ReportScreen name="refill" state={state} single={REFILL_SINGLE} action={action} exportOnly={!allowed('total_list') && !allowed('list')}>
      {body}
    </ReportScreen>
  );
}
