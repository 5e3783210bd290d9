import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { Query } from '../../../api/client';
import type { Payout, Reconciliation, ReconRow } from '../../../api/types';
import { formatCount } from '../../../components/format';
import { formatMoney, REPORT_CURRENCY } from '../../../components/money';
import { reportColumns, type ReportColumns } from '../../../components/reports/report-columns';
import { ReportFailure } from '../../../components/reports/report-notices';
import { StatCards } from '../../../components/reports/stat-cards';
import { formatSignedMoney, signedColor } from '../../../components/reports/signed-money';
import { SummaryTable } from '../../../components/reports/summary-table';
import { useReconciliation } from '../api/settlements';
import { reconRowId, rowsOfStatus, STATUSES, type SettlementStatus } from '../settlements-logic';
import { Difference, StatusChip } from './status-parts';

/** A machine-day's amounts are in its machine's currency. */
const inRowCurrency = { currency: (row: ReconRow) => row.currency };

function rowColumns(col: ReportColumns<ReconRow>, t: TFunction): GridColDef<ReconRow>[] {
  return [
    col.text('machine_name', t('settlements.machine'), { minWidth: 150 }),
    col.text('terminal_id', t('settlements.terminal'), { minWidth: 110 }),
    col.date('date', t('settlements.day'), { minWidth: 110 }),
    col.money('sales_minor', t('settlements.cardSales'), inRowCurrency),
    col.money('gross_minor', t('settlements.settled'), inRowCurrency),
    // Signed, on a chip coloured by its sign, and said in words.
    { field: 'difference_minor', headerName: t('settlements.difference'), type: 'number', minWidth: 130, renderCell: ({ row }) => <Difference minor={row.difference_minor} currency={row.currency} /> },
    col.money('fees_minor', t('settlements.fees'), inRowCurrency),
    col.money('net_minor', t('settlements.net'), inRowCurrency),
    { field: 'status', headerName: t('settlements.statusColumn'), minWidth: 150, renderCell: ({ row }) => <StatusChip status={row.status} /> },
    col.text('payouts', t('settlements.payouts'), { minWidth: 160, valueGetter: (value: string[]) => value.join(', '), sortable: false }),
    col.count('transactions', t('settlements.transactions'), { minWidth: 120 }),
    col.count('settled_count', t('settlements.settledCount'), { minWidth: 120 }),
  ];
}

function payoutColumns(col: ReportColumns<Payout>, t: TFunction): GridColDef<Payout>[] {
  return [
    col.text('reference', t('settlements.reference'), { minWidth: 160 }),
    col.text('processor', t('settlements.processor'), { minWidth: 130 }),
    col.text('file_name', t('settlements.file'), { minWidth: 160 }),
    col.count('lines', t('settlements.lines')),
    col.money('gross_minor', t('settlements.settled')),
    col.money('fees_minor', t('settlements.fees')),
    col.money('net_minor', t('settlements.net')),
  ];
}

const payoutId = (row: Payout) => `${row.reference}|${row.import_id}`;

/** The status counts as chips that filter the machine-days (a pressed chip shows only its own). */
function StatusFilter({ data, status, onChange }: { data: Reconciliation | undefined; status: SettlementStatus | null; onChange: (status: SettlementStatus | null) => void }) {
  const { t, i18n } = useTranslation();
  const count = (value: number) => formatCount(value, i18n.language);
  const total = data?.rows.length ?? 0;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }} role="group" aria-label={t('settlements.statusFilter')} data-testid="settlement-status-filter">
      <Chip
        label={t('settlements.statusCount', { status: t('settlements.allStatuses'), count: count(total) })}
        color={status === null ? 'primary' : 'default'}
        variant={status === null ? 'filled' : 'outlined'}
        aria-pressed={status === null}
        onClick={() => onChange(null)}
        data-testid="settlement-status-all"
      />
      {STATUSES.map((value) => {
        const pressed = status === value;
        return (
          <Chip
            key={value}
            label={t('settlements.statusCount', { status: t(`settlements.status.${value}`), count: count(data?.totals.by_status[value] ?? 0) })}
            color={pressed ? 'primary' : 'default'}
            variant={pressed ? 'filled' : 'outlined'}
            aria-pressed={pressed}
            onClick={() => onChange(pressed ? null : value)}
            data-testid={`settlement-status-${value}`}
          />
        );
      })}
    </Stack>
  );
}

/** The period's reconciliation: totals, status counts (filters), the machine-days and the payouts. */
export function ReconciliationView({ query }: { query: Query }) {
  const { t, i18n } = useTranslation();
  const reconciliation = useReconciliation(query, true);
  const [status, setStatus] = useState<SettlementStatus | null>(null);
  const data = reconciliation.data;
  const totals = data?.totals;
  const money = (minor: number) => formatMoney(minor, REPORT_CURRENCY, i18n.language);
  const rowCol = reportColumns<ReconRow>(i18n.language);
  const payoutCol = reportColumns<Payout>(i18n.language);
  if (reconciliation.isError) return <ReportFailure query={reconciliation} testId="settlements-error" text={t('settlements.loadFailed')} />;
  const difference = totals?.difference_minor ?? 0;
  return (
    <>
      <StatCards
        testId="settlements-total"
        loading={!totals}
        stats={[
          { key: 'sales', label: t('settlements.cardSales'), value: money(totals?.sales_minor ?? 0), caption: t('settlements.machineDays', { count: data?.rows.length ?? 0, formatted: formatCount(data?.rows.length ?? 0, i18n.language) }) },
          { key: 'gross', label: t('settlements.settled'), value: money(totals?.gross_minor ?? 0) },
          { key: 'fees', label: t('settlements.fees'), value: money(totals?.fees_minor ?? 0) },
          { key: 'net', label: t('settlements.net'), value: money(totals?.net_minor ?? 0) },
          {
            key: 'difference',
            label: t('settlements.difference'),
            value: formatSignedMoney(difference, REPORT_CURRENCY, i18n.language),
            color: difference === 0 ? undefined : `${signedColor(difference)}.main`,
            caption: t('settlements.differenceCaption'),
          },
        ]}
      />
      <StatusFilter data={data} status={status} onChange={setStatus} />
      <SummaryTable
        testId="settlements-grid"
        title={t('settlements.reconciliation')}
        subheader={t('settlements.reconciliationHint')}
        rows={rowsOfStatus(data?.rows ?? [], status)}
        getRowId={reconRowId}
        columns={rowColumns(rowCol, t)}
        loading={reconciliation.isFetching}
        noRowsLabel={status ? t('settlements.noRowsOfStatus') : t('settlements.noRows')}
        pageSize={25}
        notice={
          data && data.rows.length === 0 ? (
            <Alert severity="info" data-testid="settlements-no-terminals">
              {t('settlements.noTerminals')}
            </Alert>
          ) : null
        }
      />
      <SummaryTable
        testId="settlements-payouts"
        title={t('settlements.payoutsTitle')}
        subheader={t('settlements.payoutsHint')}
        rows={data?.payouts ?? []}
        getRowId={payoutId}
        columns={payoutColumns(payoutCol, t)}
        loading={reconciliation.isFetching}
        noRowsLabel={t('settlements.noPayouts')}
      />
    </>
  );
}
