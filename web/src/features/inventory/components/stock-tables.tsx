import type { TFunction } from 'i18next';
import type { GridColDef } from '@mui/x-data-grid';
import type { Query } from '../../../api/client';
import type { ComponentStock, ProductStock } from '../../../api/types';
import type { ReportColumns } from '../../../components/reports/report-columns';
import { ReportList, type ReportListSpec, type ReportRow } from '../../../components/reports/report-list';
import { componentStock, productStock } from '../api/inventory';
import { AlertCount, ExpiryCell, FillCell } from './stock-cells';

type ProductRow = ReportRow<ProductStock>;
type ComponentRow = ReportRow<ComponentStock>;

// Eleven columns that all show at 1440 px (issue 29: the last one was cut): they fit the grid.
const PRODUCTS: ReportListSpec<ProductStock> = { name: 'inventory-products', source: productStock, title: 'inventory.byProduct', noRows: 'inventory.noStock', searchable: true, fit: true };
const COMPONENTS: ReportListSpec<ComponentStock> = { name: 'inventory-components', source: componentStock, title: 'inventory.byComponent', noRows: 'inventory.noStock', searchable: true, fit: true };

function productColumns(col: ReportColumns<ProductRow>, t: TFunction): GridColDef<ProductRow>[] {
  return [
    // How much and what needs a visit first, then the rest; minimums that hold each cell (a bar
    // and its percentage, a date, an amount); a grid narrower than their sum scrolls sideways.
    col.text('name', t('inventory.product'), { minWidth: 120, flex: 1.5 }),
    col.count('quantity', t('inventory.quantity'), { minWidth: 72 }),
    col.count('capacity', t('inventory.capacity'), { minWidth: 72 }),
    { field: 'fill', headerName: t('inventory.fill'), minWidth: 96, sortable: false, renderCell: ({ row }) => <FillCell quantity={row.quantity} capacity={row.capacity} /> },
    { field: 'sold_out', headerName: t('inventory.soldOut'), type: 'number', minWidth: 64, renderCell: ({ row }) => <AlertCount count={row.sold_out} color="error" /> },
    { field: 'low', headerName: t('inventory.low'), type: 'number', minWidth: 64, renderCell: ({ row }) => <AlertCount count={row.low} color="warning" /> },
    { field: 'next_expiry', headerName: t('inventory.nextExpiry'), minWidth: 108, renderCell: ({ row }) => <ExpiryCell date={row.next_expiry} /> },
    col.money('value_minor', t('inventory.value'), { minWidth: 96 }),
    col.count('selections', t('inventory.selections'), { minWidth: 64 }),
    col.count('machines', t('inventory.machines'), { minWidth: 64 }),
    col.text('units', t('inventory.units'), { minWidth: 64, flex: 0.5 }),
  ];
}

function componentColumns(col: ReportColumns<ComponentRow>, t: TFunction): GridColDef<ComponentRow>[] {
  return [
    col.text('name', t('inventory.component'), { minWidth: 180, flex: 2 }),
    col.text('unit', t('inventory.units'), { minWidth: 80, flex: 0.5 }),
    col.count('quantity', t('inventory.quantity')),
    col.count('machines', t('inventory.machines')),
  ];
}

/** The stock of each product in the chosen machines: units, value, fill, selections to visit, soonest expiry. */
export function ProductStockTable({ query }: { query: Query }) {
  return <ReportList spec={PRODUCTS} query={query} columns={productColumns} />;
}

/** The stock of each component (cups, grams of coffee…) in the chosen machines. */
export function ComponentStockTable({ query }: { query: Query }) {
  return <ReportList spec={COMPONENTS} query={query} columns={componentColumns} />;
}
