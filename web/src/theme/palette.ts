import type { ColorPreset, ThemeMode } from '../settings/types';

/** A colour as MUI's palette holds it. */
export interface ColorSet {
  lighter: string;
  light: string;
  main: string;
  dark: string;
  darker: string;
  contrastText: string;
}

/**
 * A hue: Minimal UI's five shades (the light ones for fills and backgrounds) and the shade its text,
 * icons and solid fills take in each mode, chosen for WCAG 2.1 AA: `onLight` is at least 4.5:1 on
 * white, on grey 200 and on a 16 % tint of itself, with white text on it at least 4.5:1; `onDark`
 * the same on grey 800 and 900, with grey 900 text on it (`palette.test.ts` checks every one).
 */
export interface Hue {
  lighter: string;
  light: string;
  /** The brand shade (the settings drawer's swatch). */
  main: string;
  dark: string;
  darker: string;
  onLight: string;
  onDark: string;
}

export const grey = {
  50: '#FCFDFD',
  100: '#F9FAFB',
  200: '#F4F6F8',
  300: '#DFE3E8',
  400: '#C4CDD5',
  500: '#919EAB',
  600: '#637381',
  700: '#454F5B',
  800: '#1C252E',
  900: '#141A21',
} as const;

/** The six colour presets of the settings drawer; `default` is the brand green. */
export const PRESETS: Record<ColorPreset, Hue> = {
  default: { lighter: '#C8FAD6', light: '#5BE49B', main: '#00A76F', dark: '#007867', darker: '#004B50', onLight: '#006B47', onDark: '#33B98C' },
  cyan: { lighter: '#CCF4FE', light: '#68CDF9', main: '#078DEE', dark: '#0351AB', darker: '#012972', onLight: '#0560A2', onDark: '#47ABF2' },
  purple: { lighter: '#EBD6FD', light: '#B985F4', main: '#7635DC', dark: '#431A9E', darker: '#200A69', onLight: '#7434D8', onDark: '#B896ED' },
  blue: { lighter: '#CDE9FD', light: '#6BB1F8', main: '#0C68E9', dark: '#063BA7', darker: '#021D6F', onLight: '#0A58C6', onDark: '#74A9F2' },
  orange: { lighter: '#FEF4D4', light: '#FED680', main: '#FDA92D', dark: '#B66816', darker: '#793908', onLight: '#815617', onDark: '#FDA92D' },
  red: { lighter: '#FFE3D5', light: '#FFC1AC', main: '#FF3030', dark: '#B71833', darker: '#7A0930', onLight: '#B32222', onDark: '#FF7878' },
};

export const secondary: Hue = {
  lighter: '#EFD6FF', light: '#C684FF', main: '#8E33FF', dark: '#5119B7', darker: '#27097A', onLight: '#792BD9', onDark: '#C08DFF',
};
export const info: Hue = {
  lighter: '#CAFDF5', light: '#61F3F3', main: '#00B8D9', dark: '#006C9C', darker: '#003768', onLight: '#00677A', onDark: '#00B8D9',
};
export const success: Hue = {
  lighter: '#D3FCD2', light: '#77ED8B', main: '#22C55E', dark: '#118D57', darker: '#065E49', onLight: '#136C34', onDark: '#22C55E',
};
export const warning: Hue = {
  lighter: '#FFF5CC', light: '#FFD666', main: '#FFAB00', dark: '#B76E00', darker: '#7A4100', onLight: '#7F5500', onDark: '#FFAB00',
};
export const error: Hue = {
  lighter: '#FFE9D5', light: '#FFAC82', main: '#FF5630', dark: '#B71D18', darker: '#7A0916', onLight: '#A6381F', onDark: '#FF795B',
};

/**
 * The hue as the palette of a mode: `main` (text, icons, solid fills, what MUI colours with it) is
 * the mode's accessible shade, with white text on it in light mode and grey 900 in dark mode;
 * `dark` is MUI's hover shade of a solid fill (deeper in light mode, brighter in dark mode).
 */
export function colorSet(hue: Hue, mode: ThemeMode): ColorSet {
  const { lighter, light, darker } = hue;
  return mode === 'dark'
    ? { lighter, light, main: hue.onDark, dark: hue.light, darker, contrastText: grey[900] }
    : { lighter, light, main: hue.onLight, dark: hue.darker, darker, contrastText: '#FFFFFF' };
}

/**
 * A colour preset's swatch in the settings drawer (and the chosen one's border): the shade the
 * preset's primary takes in the mode, which is what the app will look like once it is chosen and
 * at least 3:1 on the drawer (the brand shade alone was 1.9:1 for orange on white, 2.5:1 for
 * purple on dark mode's grey 800).
 */
export function swatchColor(preset: ColorPreset, mode: ThemeMode): string {
  return colorSet(PRESETS[preset], mode).main;
}

/** The backgrounds text stands on in a mode (the page, the cards and menus, bold contrast's grey). */
export const BACKGROUNDS: Record<ThemeMode, readonly string[]> = {
  light: ['#FFFFFF', grey[200]],
  dark: [grey[900], grey[800]],
};

/** Secondary text (captions, nav subheaders, breadcrumbs, table heads): at least 4.5:1 on `BACKGROUNDS`. */
export const SECONDARY_TEXT: Record<ThemeMode, string> = { light: grey[600], dark: grey[500] };
