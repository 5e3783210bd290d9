import { describe, expect, it } from 'vitest';
import { getContrastRatio } from '@mui/material/styles';
import { COLOR_PRESETS, THEME_MODES } from '../settings/types';
import { createAppTheme } from './create-theme';
import { BACKGROUNDS, colorSet, error, grey, info, PRESETS, SECONDARY_TEXT, secondary, success, swatchColor, warning, type Hue } from './palette';
import { mapBackground, ROUTE_COLORS, ROUTE_OPACITY } from '../features/route-planning/planning-logic';
import { groundColors } from '../components/map/ground-style';
import { needMark } from '../features/route-planning/components/map-marks';

/** `colour` laid over `background` at `opacity` (both #RRGGBB). */
function over(background: string, colour: string, opacity: number): string {
  const channels = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  const under = channels(background);
  return `#${channels(colour)
    .map((value, index) => Math.round(under[index] * (1 - opacity) + value * opacity).toString(16).padStart(2, '0'))
    .join('')}`;
}

const HUES: [string, Hue][] = [
  ...COLOR_PRESETS.map((preset): [string, Hue] => [`preset ${preset}`, PRESETS[preset]]),
  ['secondary', secondary],
  ['info', info],
  ['success', success],
  ['warning', warning],
  ['error', error],
];

describe('the palette meets WCAG 2.1 AA', () => {
  for (const mode of THEME_MODES) {
    for (const [name, hue] of HUES) {
      it(`${name} in ${mode} mode: text on the backgrounds, on its tints and its soft chip; text on its solid fill`, () => {
        const set = colorSet(hue, mode);
        for (const background of BACKGROUNDS[mode]) {
          expect(getContrastRatio(set.main, background)).toBeGreaterThanOrEqual(4.5);
          // The selected nav item and hovered rows: a tint of the hue behind its own text.
          expect(getContrastRatio(set.main, over(background, set.main, 0.16))).toBeGreaterThanOrEqual(4.5);
        }
        // Dark mode: a faint tint of the hue on the data grid's surface (paper with 8 % grey over it).
        const chipFill = mode === 'dark' ? over(over(BACKGROUNDS.dark[1], grey[500], 0.08), set.main, 0.08) : set.lighter;
        expect(getContrastRatio(set.main, chipFill)).toBeGreaterThanOrEqual(4.5);
        expect(getContrastRatio(set.contrastText, set.main)).toBeGreaterThanOrEqual(4.5);
        expect(getContrastRatio(set.contrastText, set.dark)).toBeGreaterThanOrEqual(4.5);
      });
    }

    it(`secondary text in ${mode} mode`, () => {
      for (const background of BACKGROUNDS[mode]) expect(getContrastRatio(SECONDARY_TEXT[mode], background)).toBeGreaterThanOrEqual(4.5);
    });
  }

  // Graphics (WCAG 1.4.11): 3:1 on what they stand on.
  for (const mode of THEME_MODES) {
    it(`the route-planning map in ${mode} mode: routes, need and offline marks, the chosen ring`, () => {
      const { palette } = createAppTheme({ settings: { themeMode: mode, themeContrast: 'default', themeColorPresets: 'default' }, direction: 'ltr', language: 'en' });
      const map = mapBackground(palette);
      for (const colour of ROUTE_COLORS[mode]) {
        expect(getContrastRatio(over(map, colour, ROUTE_OPACITY), map)).toBeGreaterThanOrEqual(3);
        // The legend's and the plan's route marks, on the cards.
        for (const card of BACKGROUNDS[mode]) expect(getContrastRatio(colour, card)).toBeGreaterThanOrEqual(3);
      }
      // A marker's fill (its need's colour, or the offline grey) at its 0.9 opacity; a chosen one's ring.
      for (const fill of [palette.error.main, palette.warning.main, palette.success.main, palette.text.secondary]) {
        expect(getContrastRatio(over(map, fill, 0.9), map)).toBeGreaterThanOrEqual(3);
      }
      expect(getContrastRatio(palette.text.primary, map)).toBeGreaterThanOrEqual(3);
    });
  }

  for (const mode of THEME_MODES) {
    it(`the settings drawer's colour swatches in ${mode} mode: 3:1 on the drawer, the chosen one on its tint too`, () => {
      for (const preset of COLOR_PRESETS) {
        const swatch = swatchColor(preset, mode);
        // The mode's shade of the preset: what the primary colour will be once it is chosen.
        expect(swatch).toBe(createAppTheme({ settings: { themeMode: mode, themeContrast: 'default', themeColorPresets: preset }, direction: 'ltr', language: 'en' }).palette.primary.main);
        for (const drawer of BACKGROUNDS[mode]) {
          expect(getContrastRatio(swatch, drawer)).toBeGreaterThanOrEqual(3);
          expect(getContrastRatio(swatch, over(drawer, swatch, 0.08))).toBeGreaterThanOrEqual(3);
        }
      }
    });

    // (The need marks, which no preset changes, are checked above on the land and in
    // components/map/ground-style.test.ts on the sea.)
    it(`the maps' marks of the primary colour in ${mode} mode, in every preset: 3:1 on land and sea`, () => {
      for (const preset of COLOR_PRESETS) {
        const { palette } = createAppTheme({ settings: { themeMode: mode, themeContrast: 'default', themeColorPresets: preset }, direction: 'ltr', language: 'en' });
        const ground = groundColors(palette);
        // The location picker's place, and the focus ring of a map and of its markers.
        for (const under of [ground.land, ground.sea]) expect(getContrastRatio(palette.primary.main, under)).toBeGreaterThanOrEqual(3);
      }
    });

    it(`a cluster's count in ${mode} mode: text on each need's mark and on the unknown's grey`, () => {
      const theme = createAppTheme({ settings: { themeMode: mode, themeContrast: 'default', themeColorPresets: 'default' }, direction: 'ltr', language: 'en' });
      for (const level of [null, 'now', 'soon', 'later'] as const) {
        const { fill, text } = needMark(theme, level);
        expect(getContrastRatio(text, fill)).toBeGreaterThanOrEqual(4.5);
      }
    });
  }

  it('the theme takes the mode’s shades', () => {
    for (const mode of THEME_MODES) {
      const theme = createAppTheme({
        settings: { themeMode: mode, themeContrast: 'default', themeColorPresets: 'default' },
        direction: 'ltr',
        language: 'en',
      });
      expect(theme.palette.primary.main).toBe(colorSet(PRESETS.default, mode).main);
      expect(theme.palette.warning.contrastText).toBe(colorSet(warning, mode).contrastText);
      expect(theme.palette.text.secondary).toBe(SECONDARY_TEXT[mode]);
      expect(BACKGROUNDS[mode]).toContain(theme.palette.background.paper);
      expect(BACKGROUNDS[mode]).toContain(theme.palette.background.default);
    }
  });
});
