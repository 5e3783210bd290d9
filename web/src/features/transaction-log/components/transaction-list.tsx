import type { TFunction } from 'i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Chip from '@mui/material/Chip';
import type { Query } from '../../../api/client';
import type { ReportColumns } from '../../../components/reports/report-columns';
import { ReportList, type ReportListSpec } from '../../../components/reports/report-list';
import type { Transaction } from '../../../api/types';
import { transactionList } from '../api/transaction-log';

const LIST: ReportListSpec<Transaction> = { name: 'transaction-list', source: transactionList, title: 'transactionLog.detail', noRows: 'transactionLog.noTransactions' };

function columns(col: ReportColumns<Transaction>, t: TFunction): GridColDef<Transaction>[] {
  return [
    col.dateTime('at', t('transactionLog.at')),
    col.text('machine', t('transactionLog.machine'), { minWidth: 120 }),
    col.text('selection', t('transactionLog.selection'), { minWidth: 90, flex: 0.5 }),
    col.text('product', t('transactionLog.product'), { minWidth: 180, flex: 1.5 }),
    col.count('quantity', t('transactionLog.quantity')),
    col.money('revenue_minor', t('transactionLog.revenue'), { currency: (row) => row.currency }),
    col.money('revenue_excl_tax_minor', t('transactionLog.revenueExclTax'), { currency: (row) => row.currency, minWidth: 130 }),
    {
      field: 'payment',
      headerName: t('transactionLog.payment'),
      minWidth: 120,
      renderCell: ({ row }) => (
        <Chip size="small" variant="outlined" color={row.payment === 'cash' ? 'default' : 'info'} label={t(`transactionLog.payments.${row.payment}`)} />
      ),
    },
    col.text('location', t('transactionLog.location'), { minWidth: 220 }),
  ];
}

/** Every vend of the span, newest first, one server page at a time. */
export function TransactionList({ query }: { query: Query }) {
  return <ReportList spec={LIST} query={query} columns={columns} />;
}
