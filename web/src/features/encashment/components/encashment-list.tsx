import type { TFunction } from 'i18next';
import type { GridColDef } from '@mui/x-data-grid';
import type { Query } from '../../../api/client';
import type { Encashment } from '../../../api/types';
import type { ReportColumns } from '../../../components/reports/report-columns';
import { ReportList, type ReportListSpec } from '../../../components/reports/report-list';
import { encashmentList } from '../api/encashment';
import { OverShort } from './over-short';

const LIST: ReportListSpec<Encashment> = { name: 'encashment-list', source: encashmentList, title: 'encashment.collections', noRows: 'encashment.noCollections' };

function columns(col: ReportColumns<Encashment>, t: TFunction): GridColDef<Encashment>[] {
  const money = (field: keyof Encashment, title: string) => col.money(field, title, { currency: (row) => row.currency });
  return [
    // Who collected what against what was expected first (the columns a 1280 px screen shows),
    // then how the cash was made up, then where.
    col.dateTime('date', t('encashment.date')),
    col.text('machine', t('encashment.machine'), { minWidth: 120 }),
    col.text('employee', t('encashment.employee'), { minWidth: 130 }),
    money('collected_minor', t('encashment.collected')),
    money('expected_minor', t('encashment.expected')),
    {
      field: 'over_short_minor',
      headerName: t('encashment.overShort'),
      type: 'number',
      minWidth: 130,
      renderCell: ({ row }) => <OverShort minor={row.over_short_minor} currency={row.currency} />,
    },
    // The machine's own cash counters (DEX CA3 less CA4 change), where audits were read at both
    // collections.
    money('counted_minor', t('encashment.counted')),
    {
      field: 'counted_over_short_minor',
      headerName: t('encashment.countedOverShort'),
      type: 'number',
      minWidth: 150,
      renderCell: ({ row }) => <OverShort minor={row.counted_over_short_minor ?? null} currency={row.currency} />,
    },
    col.text('bag_no', t('encashment.bagNo'), { minWidth: 170 }),
    money('cash_box_minor', t('encashment.cashBox')),
    money('bill_stacker_minor', t('encashment.billStacker')),
    money('tubes_minor', t('encashment.tubes')),
    money('ejected_minor', t('encashment.ejected')),
    money('refilled_coins_minor', t('encashment.refilledCoins')),
    col.text('location', t('encashment.location'), { minWidth: 220 }),
  ];
}

/** Every collection of the period, newest first, with what was expected and the over or short. */
export function EncashmentList({ query }: { query: Query }) {
  return <ReportList spec={LIST} query={query} columns={columns} />;
}
