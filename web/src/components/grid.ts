import type { GridSortModel } from '@mui/x-data-grid';
import type { GridRowId, GridRowSelectionModel } from '@mui/x-data-grid';
import { GridLoadingBar } from './grid-loading-bar';

export const PAGE_SIZES = [10, 25, 50, 100];

export const EMPTY_SELECTION: GridRowSelectionModel = { type: 'include', ids: new Set() };

/** The ids a selection model means for the rows on screen ("exclude" = all but these). */
export function selectedIds(model: GridRowSelectionModel, visible: { id: string }[]): string[] {
  if (model.type === 'include') return [...model.ids].map(String);
  return visible.map((row) => row.id).filter((id) => !model.ids.has(id as GridRowId));
}

/**
 * The `ordering` parameter for a sort model. `sortable` maps a grid column to the server's
 * ordering name (e.g. the `type` column sorts by `location_type`).
 */
export function orderingOf(model: GridSortModel, sortable: Record<string, string>): string {
  const first = model[0];
  if (!first || !first.sort || !(first.field in sortable)) return '';
  return `${first.sort === 'desc' ? '-' : ''}${sortable[first.field]}`;
}

const GRID_SLOTS = { baseLinearProgress: GridLoadingBar } as const;
const GRID_SLOT_PROPS = { loadingOverlay: { 'aria-hidden': true } } as const;

/**
 * A data grid's loading state, to spread on it (issue 33): `loading`, and the slots that draw the
 * bar of its loading overlay with `GridLoadingBar` — named, and outside role="grid" (where only
 * rows may be). The overlay itself (the skeleton of a grid without rows yet) is hidden from
 * screen readers; the box around each grid says `aria-busy` while it loads.
 */
export function gridLoading(loading: boolean) {
  return { loading, slots: GRID_SLOTS, slotProps: GRID_SLOT_PROPS };
}
