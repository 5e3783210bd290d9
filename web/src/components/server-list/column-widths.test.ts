import type { GridColDef } from '@mui/x-data-grid';
import { describe, expect, it } from 'vitest';
import { actionsWidth, fitColumns, HEADER_CHROME, SORT_ICON } from './column-widths';

// Ten pixels per character keeps the arithmetic readable.
const measure = (text: string) => text.length * 10;
const columns: GridColDef[] = [
  { field: 'name', headerName: 'Name', minWidth: 140 },
  { field: 'serial', headerName: 'Machine serial', minWidth: 90 },
  { field: 'status', headerName: 'Status', minWidth: 90 },
];
const sorts = (column: GridColDef) => column.field !== 'status';
const mins = (fitted: GridColDef[]) => fitted.map((column) => column.minWidth);

describe('column widths', () => {
  it('give each header its whole title when they all fit', () => {
    const fitted = fitColumns(columns, { available: 1000, reserved: 146, sorts, measure });
    expect(mins(fitted)).toEqual([140, 140 + HEADER_CHROME, 90]);
  });

  it('fall back to the longest word (with the sort arrow) when the whole titles do not fit', () => {
    const whole = 140 + (140 + HEADER_CHROME) + 90;
    const fitted = fitColumns(columns, { available: 146 + whole, reserved: 146, sorts, measure });
    expect(mins(fitted)).toEqual([140, 70 + HEADER_CHROME + SORT_ICON, 90]);
  });

  it('drop the columns own minimums last, never below the longest word', () => {
    const fitted = fitColumns(columns, { available: 146 + 300, reserved: 146, sorts, measure });
    expect(mins(fitted)).toEqual([40 + HEADER_CHROME + SORT_ICON, 70 + HEADER_CHROME + SORT_ICON, 60 + HEADER_CHROME]);
  });

  it('keep the columns own minimums when told not to squeeze them: the grid then scrolls', () => {
    const fitted = fitColumns(columns, { available: 146 + 300, reserved: 146, sorts, measure, squeeze: false });
    expect(mins(fitted)).toEqual([140, 70 + HEADER_CHROME + SORT_ICON, 90]);
  });

  it('keep the whole titles before the grid is measured, and size Actions for its icons and title', () => {
    expect(mins(fitColumns(columns, { reserved: 0, sorts, measure }))[1]).toBe(140 + HEADER_CHROME);
    expect(actionsWidth(2, 'Actions', measure)).toBe(96);
    expect(actionsWidth(4, 'Actions', measure)).toBe(36 * 4 + 24);
    expect(actionsWidth(1, 'A very long actions title', measure)).toBe(250 + HEADER_CHROME);
  });
});
