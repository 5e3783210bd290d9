// How the route planning's map marks things, shared by the map (loaded on its own, with Leaflet)
// and its legend (on the screen at once): the need colours, the offline grey, the depot's house.
import type { Theme } from '@mui/material/styles';
import { NEED_PALETTE, type NeedLevel } from '../planning-logic';

/** The fill of a need level (or of a need this web does not know: the offline grey) and the text on it. */
export function needMark(theme: Theme, level: NeedLevel | null): { fill: string; text: string } {
  if (!level) return { fill: offlineColor(theme), text: theme.palette.background.paper };
  const colour = theme.palette[NEED_PALETTE[level]];
  return { fill: colour.main, text: colour.contrastText };
}

/**
 * The ring of an offline machine (and the fill of one whose need is unknown): the secondary text
 * grey, at least 3:1 on the map's land in both modes (grey 500 was 2.6:1 on grey 100).
 */
export function offlineColor(theme: Theme): string {
  return theme.palette.text.secondary;
}

/**
 * The thick ring of a machine chosen for the plan (and of a cluster holding one): the text colour,
 * apart from every need colour (the theme's primary is green by default, as "later" is) and at
 * least 3:1 on the land in both modes. The depot is a house, never a ring.
 */
export function chosenRing(theme: Theme): string {
  return theme.palette.text.primary;
}

/** The depot: a house, the only square mark on the map (an SVG, for a Leaflet icon and the legend). */
export function depotSvg(theme: Theme, size: number): string {
  const fill = theme.palette.text.primary;
  const stroke = theme.palette.background.paper;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2 L23 11 H20 V22 H4 V11 H1 Z" fill="${fill}" stroke="${stroke}" stroke-width="2" stroke-linejoin="round"/><rect x="10" y="15" width="4" height="7" fill="${stroke}"/></svg>`;
}
