import type { GridRowId, GridRowSelectionModel } from '@mui/x-data-grid';

export const EMPTY_SELECTION: GridRowSelectionModel = { type: 'include', ids: new Set() };

/** The ids a selection model means for the rows on screen ("exclude" = all but these). */
export function selectedIds(model: GridRowSelectionModel, visible: { id: string }[]): string[] {
  if (model.type === 'include') return [...model.ids].map(String);
  return visible.map((row) => row.id).filter((id) => !model.ids.has(id as GridRowId));
}

export const PAGE_SIZES = [10, 25, 50, 100];
