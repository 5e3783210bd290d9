import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Button from '@mui/material/Button';
import type { Query } from '../../../api/client';
import type { VisitLine } from '../../../api/types';
import { formatDateTime } from '../../../components/format';
import { formatMoney } from '../../../components/money';
import { NO_FIGURE, type ReportColumns } from '../../../components/reports/report-columns';
import { useRowDrawer } from '../../../components/reports/report-drawer';
import { ReportList, type ReportListSpec, type ReportRow } from '../../../components/reports/report-list';
import { visitLedgerList } from '../api/visit-ledger';
import { ExplanationDrawer } from './explanation-drawer';
import { StatusChip, Variance } from './status-parts';

type Row = ReportRow<VisitLine>;

const LIST: ReportListSpec<VisitLine> = { name: 'visit-ledger', source: visitLedgerList, title: 'visitLedger.lines', noRows: 'visitLedger.noLines' };
const LIST_OF_STATUS: ReportListSpec<VisitLine> = { ...LIST, noRows: 'visitLedger.noLinesOfStatus' };

function columns(col: ReportColumns<Row>, t: TFunction, language: string, explain: (row: Row) => void): GridColDef<Row>[] {
  const money = (field: keyof VisitLine, title: string) => col.money(field, title, { currency: (row) => row.currency });
  const amount = (minor: number | null | undefined, currency: string) => (minor === null || minor === undefined ? NO_FIGURE : formatMoney(minor, currency, language));
  return [
    // The chain's result first (what a 1280 px screen shows): when, where, who, against what was
    // expected and why; then how the cash was made up.
    col.dateTime('at', t('visitLedger.date')),
    col.text('machine_name', t('visitLedger.machine'), { minWidth: 130 }),
    col.text('employee_name', t('visitLedger.employee'), { minWidth: 130, valueGetter: (value: string | null) => value || t('visitLedger.unknownEmployee') }),
    { field: 'variance_minor', headerName: t('visitLedger.variance'), type: 'number', minWidth: 120, renderCell: ({ row }) => <Variance minor={row.variance_minor} currency={row.currency} /> },
    { field: 'status', headerName: t('visitLedger.statusColumn'), minWidth: 160, renderCell: ({ row }) => <StatusChip status={row.status} /> },
    {
      field: 'why',
      headerName: '',
      minWidth: 90,
      sortable: false,
      renderCell: ({ row }) => (
        <Button
          size="small"
          aria-label={t('visitLedger.whyLabel', { machine: row.machine_name, date: formatDateTime(row.at, language) })}
          onClick={(event) => {
            event.stopPropagation();
            explain(row);
          }}
          data-testid="visit-why"
        >
          {t('visitLedger.why')}
        </Button>
      ),
    },
    money('cash_sales_minor', t('visitLedger.cashSales')),
    money('counted_minor', t('visitLedger.counted')),
    money('collected_minor', t('visitLedger.collected')),
    col.text('bag_no', t('visitLedger.bagNo'), { minWidth: 140 }),
    col.text('previous', t('visitLedger.previous'), {
      minWidth: 200,
      sortable: false,
      valueGetter: (_value, row) => (row.previous ? `${formatDateTime(row.previous.at, language)} · ${row.previous.bag_no}` : NO_FIGURE),
    }),
    col.text('tubes', t('visitLedger.tubes'), {
      minWidth: 240,
      sortable: false,
      valueGetter: (_value, row) => [amount(row.tubes_before_minor, row.currency), amount(row.tubes_minor, row.currency), amount(row.tubes_after_minor, row.currency)].join(' → '),
    }),
    money('cash_box_minor', t('visitLedger.cashBox')),
    money('bill_stacker_minor', t('visitLedger.billStacker')),
    col.text('location_name', t('visitLedger.location'), { minWidth: 200 }),
  ];
}

/** Every collection of the filters, newest first; a line (or its "Why?") opens its explanation. */
export function LedgerList({ query, filtered }: { query: Query; filtered: boolean }) {
  const { i18n } = useTranslation();
  const drawer = useRowDrawer<Row>();
  return (
    <>
      <ReportList spec={filtered ? LIST_OF_STATUS : LIST} query={query} columns={(col, t) => columns(col, t, i18n.language, drawer.show)} onRowClick={drawer.show} />
      <ExplanationDrawer drawer={drawer} />
    </>
  );
}
