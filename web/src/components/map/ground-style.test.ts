import { describe, expect, it } from 'vitest';
import { getContrastRatio } from '@mui/material/styles';
import { THEME_MODES } from '../../settings/types';
import { createAppTheme } from '../../theme/create-theme';
import { groundColors, mapBackground } from './ground-style';

describe('the ground of the maps', () => {
  for (const mode of THEME_MODES) {
    const { palette } = createAppTheme({ settings: { themeMode: mode, themeContrast: 'default', themeColorPresets: 'default' }, direction: 'ltr', language: 'en' });
    const colors = groundColors(palette);

    it(`in ${mode} mode: place names read on land and sea (4.5:1), the land is what the markers are checked on`, () => {
      for (const under of [colors.land, colors.sea]) expect(getContrastRatio(colors.label, under)).toBeGreaterThanOrEqual(4.5);
      expect(colors.land).toBe(mapBackground(palette));
      expect(colors.halo).toBe(colors.land);
    });

    it(`in ${mode} mode: land and sea apart, and the need marks at least 3:1 on the sea too`, () => {
      expect(getContrastRatio(colors.land, colors.sea)).toBeGreaterThan(1.1);
      for (const fill of [palette.error.main, palette.warning.main, palette.success.main, palette.text.secondary, palette.text.primary]) {
        expect(getContrastRatio(fill, colors.sea)).toBeGreaterThanOrEqual(3);
      }
    });
  }
});
