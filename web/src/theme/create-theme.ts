import { alpha, createTheme, type Theme } from '@mui/material/styles';
import { enUS, frFR, itIT } from '@mui/material/locale';
import type { Settings } from '../settings/types';
import { colorSet, error, grey, info, PRESETS, SECONDARY_TEXT, secondary, success, warning } from './palette';

export const FONT_FAMILY = '"Public Sans Variable", "Public Sans", -apple-system, "Segoe UI", Roboto, sans-serif';

const MUI_LOCALES = { en: enUS, fr: frFR, it: itIT } as const;

export interface ThemeOptionsInput {
  settings: Pick<Settings, 'themeMode' | 'themeContrast' | 'themeColorPresets'>;
  direction: 'ltr' | 'rtl';
  language: string;
}

/** Builds the MUI theme for the current settings: Minimal UI's palette, type scale and shapes. */
export function createAppTheme({ settings, direction, language }: ThemeOptionsInput): Theme {
  const mode = settings.themeMode;
  const dark = mode === 'dark';
  const hues = {
    primary: colorSet(PRESETS[settings.themeColorPresets], mode),
    secondary: colorSet(secondary, mode),
    info: colorSet(info, mode),
    success: colorSet(success, mode),
    warning: colorSet(warning, mode),
    error: colorSet(error, mode),
  };
  const bold = settings.themeContrast === 'bold';
  const cardShadow = `0 0 2px 0 ${alpha(dark ? '#000000' : grey[500], 0.2)}, 0 12px 24px -4px ${alpha(dark ? '#000000' : grey[500], 0.12)}`;
  const locale = MUI_LOCALES[language as keyof typeof MUI_LOCALES] ?? enUS;

  return createTheme(
    {
      direction,
      palette: {
        mode,
        ...hues,
        grey,
        divider: alpha(grey[500], 0.2),
        text: dark
          ? { primary: '#FFFFFF', secondary: SECONDARY_TEXT.dark, disabled: grey[600] }
          : { primary: grey[800], secondary: SECONDARY_TEXT.light, disabled: grey[500] },
        background: dark
          ? { default: grey[900], paper: grey[800] }
          : { default: bold ? grey[200] : '#FFFFFF', paper: '#FFFFFF' },
        action: {
          hover: alpha(grey[500], 0.08),
          selected: alpha(grey[500], 0.16),
          disabled: alpha(grey[500], 0.8),
          disabledBackground: alpha(grey[500], 0.24),
          focus: alpha(grey[500], 0.24),
        },
      },
      shape: { borderRadius: 8 },
      typography: {
        fontFamily: FONT_FAMILY,
        fontWeightRegular: 400,
        fontWeightMedium: 500,
        fontWeightBold: 700,
        h1: { fontWeight: 800, fontSize: '2.5rem', lineHeight: 1.25 },
        h2: { fontWeight: 800, fontSize: '2rem', lineHeight: 1.33 },
        h3: { fontWeight: 700, fontSize: '1.5rem', lineHeight: 1.5 },
        h4: { fontWeight: 700, fontSize: '1.25rem', lineHeight: 1.5 },
        h5: { fontWeight: 700, fontSize: '1.125rem', lineHeight: 1.5 },
        h6: { fontWeight: 700, fontSize: '1.0625rem', lineHeight: 1.55 },
        subtitle1: { fontWeight: 600, fontSize: '1rem' },
        subtitle2: { fontWeight: 600, fontSize: '0.875rem' },
        body2: { fontSize: '0.875rem' },
        caption: { fontSize: '0.75rem' },
        overline: { fontWeight: 700, fontSize: '0.75rem', letterSpacing: 1.1 },
        button: { fontWeight: 700, textTransform: 'none' },
      },
      components: {
        MuiCssBaseline: {
          styleOverrides: {
            html: { WebkitFontSmoothing: 'antialiased' },
            body: { minHeight: '100vh' },
          },
        },
        MuiCard: {
          styleOverrides: {
            root: {
              borderRadius: 16,
              boxShadow: bold && !dark ? `0 0 2px 0 ${alpha(grey[500], 0.3)}` : cardShadow,
              backgroundImage: 'none',
            },
          },
        },
        MuiCardHeader: { styleOverrides: { root: { padding: '24px 24px 0' } } },
        MuiCardContent: { styleOverrides: { root: { padding: 24, '&:last-child': { paddingBottom: 24 } } } },
        MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
        // Every button, menu item, tab and nav item shows where the keyboard is (MUI's ButtonBase
        // removes the browser's outline and, without a focus ripple, shows nothing).
        MuiButtonBase: {
          styleOverrides: {
            root: { '&.Mui-focusVisible': { outline: `2px solid ${hues.primary.main}`, outlineOffset: 2 } },
          },
        },
        MuiButton: {
          defaultProps: { disableElevation: true },
          styleOverrides: { root: { borderRadius: 8 } },
        },
        MuiTooltip: { styleOverrides: { tooltip: { backgroundColor: grey[800] } } },
        MuiTableCell: { styleOverrides: { head: { color: SECONDARY_TEXT[mode], fontWeight: 600 } } },
        MuiChip: {
          styleOverrides: {
            // A coloured chip is "soft": the hue's text shade on a light fill of it (a solid fill
            // would need white text on a dark shade, far from the look); in dark mode a faint
            // tint, as chips also sit on the data grid's lighter surface and on hovered rows.
            filled: ({ ownerState }) => {
              const color = ownerState.color;
              if (!color || color === 'default') return {};
              const { main, lighter } = hues[color];
              const fill = dark ? alpha(main, 0.08) : lighter;
              return {
                color: main,
                backgroundColor: fill,
                '&.MuiChip-clickable:hover, &.Mui-focusVisible': { backgroundColor: alpha(main, dark ? 0.32 : 0.24) },
                '& .MuiChip-icon': { color: 'inherit' },
                '& .MuiChip-deleteIcon': { color: alpha(main, 0.72), '&:hover': { color: main } },
              };
            },
          },
        },
      },
    },
    locale,
  );
}
