// The colours of the maps' ground (the bundled base layer drawn when no tile server is set), per
// theme mode: the markers and routes stand on the land, the place names on land and sea.
import type { Palette } from '@mui/material/styles';

export interface GroundColors {
  /** The map's background: the sea, and everything before the land is drawn. */
  sea: string;
  land: string;
  coast: string;
  border: string;
  /** Place names and their dots: at least 4.5:1 on the land and the sea. */
  label: string;
  /** The outline around a name, so that a line under it does not cut it. */
  halo: string;
}

/** The land, which the markers and routes stand on (at least 3:1 for them, `theme/palette.test.ts`). */
export function mapBackground(palette: Pick<Palette, 'mode' | 'grey'>): string {
  return palette.mode === 'dark' ? palette.grey[800] : palette.grey[100];
}

export function groundColors(palette: Pick<Palette, 'mode' | 'grey'>): GroundColors {
  const land = mapBackground(palette);
  return palette.mode === 'dark'
    ? { sea: '#0E151C', land, coast: palette.grey[600], border: palette.grey[600], label: palette.grey[400], halo: land }
    : { sea: '#DDE8F0', land, coast: palette.grey[400], border: palette.grey[400], label: palette.grey[700], halo: land };
}
