import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { formatDate, formatDateTime, formatDecimal } from '../../../components/format';
import { formatMoney } from '../../../components/money';
import { NO_FIGURE, reportColumns } from '../../../components/reports/report-columns';
import { ReportDrawer, type RowDrawer } from '../../../components/reports/report-drawer';
import { ReportFailure } from '../../../components/reports/report-notices';
import { SummaryTable } from '../../../components/reports/summary-table';
import { useMachineCash, useMachineNeeds } from '../api/planning';
import type { MachineCash, SelectionNeed } from '../../../api/types';
import { NeedChips } from './need-chip';

interface MachineDrawerProps {
  /** The machine to show. */
  drawer: RowDrawer<{ id: string; name: string; location_name?: string | null; need?: string; offline?: boolean }>;
  visitDate: string;
}

function CashCard({ cash }: { cash: MachineCash }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const money = (minor: number | null | undefined) => (typeof minor === 'number' ? formatMoney(minor, cash.currency, language) : NO_FIGURE);
  const facts: [string, string, string][] = [
    ['cash-box', t('routePlanning.cashBox'), money(cash.cash_box_minor)],
    ['bill-stacker', t('routePlanning.billStacker'), money(cash.bill_stacker_minor)],
    ['tubes', t('routePlanning.tubes'), money(cash.tubes_minor)],
    ['expected', t('routePlanning.expectedCash'), money(cash.expected_cash_minor)],
    ['auto-collect', t('routePlanning.autoCollect'), money(cash.auto_collect_minor)],
    ['read-at', t('routePlanning.readAt'), formatDateTime(cash.read_at, language) || NO_FIGURE],
    [
      'last-collection',
      t('routePlanning.lastCollection'),
      cash.last_collection
        ? t('routePlanning.collectionLine', {
            amount: money(cash.last_collection.collected_minor),
            at: formatDateTime(cash.last_collection.at, language),
            employee: cash.last_collection.employee_name ?? NO_FIGURE,
          })
        : t('routePlanning.noCollection'),
    ],
  ];
  return (
    <Card data-testid="machine-cash">
      <CardHeader
        title={t('routePlanning.cashTitle')}
        action={<Chip size="small" color={cash.collect ? 'error' : 'default'} variant={cash.collect ? 'filled' : 'outlined'} label={cash.collect ? t('routePlanning.collect') : t('routePlanning.noCollect')} />}
      />
      <Box component="dl" sx={{ px: 3, pb: 2.5, m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.75 }}>
        {facts.map(([key, label, value]) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }} data-testid={`machine-cash-${key}`}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Card>
  );
}

/** A machine of the list: each selection's stock, sales pace and what to bring on the visit day, and its cash. */
export function MachineDrawer({ drawer, visitDate }: MachineDrawerProps) {
  const { t, i18n } = useTranslation();
  const machine = drawer.row;
  const language = i18n.language;
  const needs = useMachineNeeds(machine?.id ?? null, visitDate);
  const cash = useMachineCash(machine?.id ?? null);
  const col = reportColumns<SelectionNeed>(language);
  const columns: GridColDef<SelectionNeed>[] = [
    col.text('selection', t('routePlanning.selection'), { minWidth: 80, flex: 0.5 }),
    col.text('product_name', t('routePlanning.product'), { minWidth: 150, flex: 1.5 }),
    col.count('current', t('routePlanning.current'), { minWidth: 80 }),
    col.count('max', t('routePlanning.max'), { minWidth: 70 }),
    {
      field: 'velocity',
      headerName: t('routePlanning.velocity'),
      type: 'number',
      minWidth: 90,
      valueFormatter: (value: number | null | undefined) => (typeof value === 'number' ? formatDecimal(value, language, 2) : NO_FIGURE),
    },
    {
      field: 'days_to_empty',
      headerName: t('routePlanning.daysToEmpty'),
      type: 'number',
      minWidth: 100,
      valueFormatter: (value: number | null | undefined) => (typeof value === 'number' ? formatDecimal(value, language) : NO_FIGURE),
    },
    col.count('predicted_at_visit', t('routePlanning.predicted'), { minWidth: 100 }),
    col.count('to_bring', t('routePlanning.toBring'), { minWidth: 80 }),
    { field: 'expiry_date', headerName: t('routePlanning.expiry'), minWidth: 110, valueFormatter: (value: string | null | undefined) => formatDate(value, language) || NO_FIGURE },
  ];
  return (
    <ReportDrawer
      control={drawer}
      testId="machine-drawer"
      width={880}
      title={machine?.name ?? ''}
      subtitle={machine ? [machine.location_name, t('routePlanning.forVisit', { date: formatDate(visitDate, language) })].filter(Boolean).join(' · ') : ''}
    >
      {machine?.need ? <NeedChips need={machine.need} offline={Boolean(machine.offline)} /> : null}
      {needs.isError ? (
        <ReportFailure query={needs} testId="machine-products-error" text={t('routePlanning.productsFailed')} />
      ) : (
        <SummaryTable
          testId="machine-products"
          title={t('routePlanning.selections')}
          rows={needs.data ?? []}
          getRowId={(row) => row.selection}
          columns={columns}
          loading={needs.isFetching}
          noRowsLabel={t('routePlanning.noSelections')}
          pageSize={25}
        />
      )}
      {cash.isError ? <ReportFailure query={cash} testId="machine-cash-error" text={t('routePlanning.cashFailed')} /> : cash.data ? <CashCard cash={cash.data} /> : null}
    </ReportDrawer>
  );
}
