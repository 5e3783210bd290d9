import { useTranslation } from 'react-i18next';
import Typography from '@mui/material/Typography';
import type { Query } from '../../../api/client';
import { formatDateRange, formatPeriodDate } from '../../../components/format';
import { EmptyReport, ReportFailure } from '../../../components/reports/report-notices';
import { KpiCards, SALES_KPIS, type KpiFigure } from '../../../components/reports/kpi-cards';
import type { TransactionFigures } from '../../../api/types';
import { useTransactionTotals } from '../api/transaction-log';

const FIGURES: readonly KpiFigure<keyof TransactionFigures>[] = [
  ...SALES_KPIS,
  { key: 'transactions', title: 'transactionLog.kpiTransactions', money: false },
];

const CARD_SIZE = { xs: 12, sm: 6, md: 4, lg: 2 } as const;

/** The span's sales, quantity, cash, cashless and number of transactions, each against the span before. */
export function TransactionTotals({ query }: { query: Query }) {
  const { t, i18n } = useTranslation();
  const totals = useTransactionTotals(query);
  const span = totals.data;
  const date = (value: string) => formatPeriodDate(value, 'span', i18n.language);
  if (totals.isError) return <ReportFailure query={totals} testId="transaction-totals-error" text={t('transactionLog.loadFailed')} />;
  return (
    <>
      {span ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="transaction-span">
          {t('sales.span', { from: date(span.date_from), to: date(span.date_to), previousFrom: date(span.previous_from), previousTo: date(span.previous_to) })}
        </Typography>
      ) : null}
      {span && span.total.transactions === 0 && !totals.isFetching ? <EmptyReport testId="transaction-empty" title={t('transactionLog.noTransactions')} /> : null}
      <KpiCards total={span?.total} previous={span?.previous} loading={totals.isPending} figures={FIGURES} prefix="transaction-kpi" size={CARD_SIZE} compared={span ? formatDateRange(span.previous_from, span.previous_to, i18n.language) : undefined} />
    </>
  );
}
