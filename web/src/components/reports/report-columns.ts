// Columns of the report grids, formatted in the user's language: text, counts, money (minor units
// with the row's currency or the reports' one), dates and times. Numbers keep their raw value, so
// a grid that sorts by itself sorts by the figure, not by its text.
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { formatCount, formatDate, formatDateTime } from '../format';
import { formatMoney, REPORT_CURRENCY } from '../money';

type Extra<R extends GridValidRowModel> = Partial<GridColDef<R>>;

/** What a missing figure shows (nothing to compare with, no value yet). */
export const NO_FIGURE = '—';

/** The column builders of `reportColumns`, for a grid of rows `R`. */
export type ReportColumns<R extends GridValidRowModel> = ReturnType<typeof reportColumns<R>>;

/** Column builders for a grid of rows `R` in `language`. */
export function reportColumns<R extends GridValidRowModel>(language: string) {
  return {
    text: (field: string, headerName: string, extra: Extra<R> = {}): GridColDef<R> => ({ field, headerName, minWidth: 120, flex: 1, ...extra }),
    count: (field: string, headerName: string, extra: Extra<R> = {}): GridColDef<R> => ({
      field,
      headerName,
      type: 'number',
      minWidth: 90,
      valueFormatter: (value: number | null | undefined) => (value === null || value === undefined ? NO_FIGURE : formatCount(value, language)),
      ...extra,
    }),
    /** Minor units in the row's currency (`currency`), else the reports' currency. */
    money: (field: string, headerName: string, extra: Extra<R> & { currency?: (row: R) => string } = {}): GridColDef<R> => {
      const { currency = () => REPORT_CURRENCY, ...rest } = extra;
      return {
        field,
        headerName,
        type: 'number',
        minWidth: 110,
        valueFormatter: (value: number | null | undefined, row: R) =>
          value === null || value === undefined ? NO_FIGURE : formatMoney(value, currency(row), language),
        ...rest,
      };
    },
    dateTime: (field: string, headerName: string, extra: Extra<R> = {}): GridColDef<R> => ({
      field,
      headerName,
      minWidth: 160,
      valueFormatter: (value: string | null | undefined) => formatDateTime(value, language),
      ...extra,
    }),
    date: (field: string, headerName: string, extra: Extra<R> = {}): GridColDef<R> => ({
      field,
      headerName,
      minWidth: 120,
      valueFormatter: (value: string | null | undefined) => formatDate(value, language) || NO_FIGURE,
      ...extra,
    }),
  };
}
