// Column widths that keep every header readable and the Actions column on screen from 1280 px
// up. The grid shares the width left among its flexible columns but never shrinks one below its
// `minWidth`; when the minimums add up to more than the grid's width it scrolls sideways and the
// Actions column (last) is cut. So each column's minimum is what its header needs, and when the
// whole headers do not fit side by side, what their longest word needs (the title then wraps onto
// a second line, see `HEADER_SX`).
import { useEffect, useState } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import { FONT_FAMILY } from '../../theme/create-theme';

/** Room around a header's title: the cell's padding and the separator. */
export const HEADER_CHROME = 24;
/** The sort arrow shown beside a sorted column's title. */
export const SORT_ICON = 28;
/** The checkbox column of a selectable grid. */
export const CHECKBOX_WIDTH = 50;
/** What a column keeps at least whatever its header says. */
const FLOOR = 64;

/** Headers may wrap onto a second line instead of being cut with an ellipsis. */
export const HEADER_SX = {
  '& .MuiDataGrid-columnHeaderTitle': { whiteSpace: 'normal', lineHeight: 1.25, overflowWrap: 'normal' },
} as const;

export type Measure = (text: string) => number;

let context: CanvasRenderingContext2D | null | undefined;

/**
 * The width of a header title in the grid's header font. A canvas measures it in a browser;
 * elsewhere (tests) a generous estimate per character stands in.
 */
export const measureHeader: Measure = (text) => {
  if (context === undefined) {
    const browser = typeof document !== 'undefined' && typeof navigator !== 'undefined' && !/jsdom/i.test(navigator.userAgent);
    context = browser ? document.createElement('canvas').getContext('2d') : null;
    if (context) context.font = `500 14px ${FONT_FAMILY}`;
  }
  return context ? Math.ceil(context.measureText(text).width) : text.length * 8;
};

const longestWord = (text: string, measure: Measure) => Math.max(0, ...text.split(/\s+/).map(measure));

interface FitOptions {
  /** The grid's width, when known. */
  available?: number;
  /** Width taken by columns not passed in (checkbox, actions). */
  reserved: number;
  /** Whether a column sorts (its arrow takes room beside the title). */
  sorts: (column: GridColDef) => boolean;
  measure?: Measure;
  /**
   * Whether columns may go below their own minimum (step 3) to fit; when not, a grid too narrow
   * for step 2 keeps step 2's widths and scrolls sideways. True by default.
   */
  squeeze?: boolean;
}

/** Room kept free so rounding never pushes the last column out. */
const SLACK = 4;

/**
 * The columns with a `minWidth` that holds their header, the widest that fits the grid of:
 * 1. the whole title on one line (and the column's own minimum for its cells);
 * 2. the title's longest word, with room for the sort arrow (titles wrap; a sorted title wraps
 *    rather than being cut), and the column's own minimum;
 * 3. the longest word alone (cells then cut their text with an ellipsis), unless `squeeze` is off.
 */
export function fitColumns<R extends object>(columns: GridColDef<R>[], { available, reserved, sorts, measure = measureHeader, squeeze = true }: FitOptions): GridColDef<R>[] {
  const own = (column: GridColDef<R>) => Math.max(column.minWidth ?? FLOOR, FLOOR);
  const word = (column: GridColDef<R>) =>
    longestWord(column.headerName ?? '', measure) + HEADER_CHROME + (sorts(column as GridColDef) ? SORT_ICON : 0);
  const levels = [
    columns.map((column) => Math.max(own(column), measure(column.headerName ?? '') + HEADER_CHROME, word(column))),
    columns.map((column) => Math.max(own(column), word(column))),
    columns.map((column) => Math.max(FLOOR, word(column))),
  ].slice(0, squeeze ? 3 : 2);
  const fits = (widths: number[]) => available === undefined || reserved + widths.reduce((sum, width) => sum + width, 0) <= available - SLACK;
  const chosen = levels.find(fits) ?? levels[levels.length - 1];
  return columns.map((column, index) => ({ ...column, minWidth: chosen[index] }));
}

/** The Actions column's width: its icons, and room for its title. */
export function actionsWidth(icons: number, title: string, measure: Measure = measureHeader): number {
  return Math.max(96, 36 * icons + 24, measure(title) + HEADER_CHROME);
}

/** The width of an element, following its resizes (undefined until measured). */
export function useWidth(element: HTMLElement | null): number | undefined {
  const [width, setWidth] = useState<number>();
  useEffect(() => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return width;
}
