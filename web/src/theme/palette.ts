import type { ColorPreset } from '../settings/types';

export interface ColorSet {
  lighter: string;
  light: string;
  main: string;
  dark: string;
  darker: string;
  contrastText: string;
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
export const PRESETS: Record<ColorPreset, ColorSet> = {
  default: { lighter: '#C8FAD6', light: '#5BE49B', main: '#00A76F', dark: '#007867', darker: '#004B50', contrastText: '#FFFFFF' },
  cyan: { lighter: '#CCF4FE', light: '#68CDF9', main: '#078DEE', dark: '#0351AB', darker: '#012972', contrastText: '#FFFFFF' },
  purple: { lighter: '#EBD6FD', light: '#B985F4', main: '#7635DC', dark: '#431A9E', darker: '#200A69', contrastText: '#FFFFFF' },
  blue: { lighter: '#CDE9FD', light: '#6BB1F8', main: '#0C68E9', dark: '#063BA7', darker: '#021D6F', contrastText: '#FFFFFF' },
  orange: { lighter: '#FEF4D4', light: '#FED680', main: '#FDA92D', dark: '#B66816', darker: '#793908', contrastText: '#1C252E' },
  red: { lighter: '#FFE3D5', light: '#FFC1AC', main: '#FF3030', dark: '#B71833', darker: '#7A0930', contrastText: '#FFFFFF' },
};

export const secondary: ColorSet = {
  lighter: '#EFD6FF', light: '#C684FF', main: '#8E33FF', dark: '#5119B7', darker: '#27097A', contrastText: '#FFFFFF',
};
export const info: ColorSet = {
  lighter: '#CAFDF5', light: '#61F3F3', main: '#00B8D9', dark: '#006C9C', darker: '#003768', contrastText: '#FFFFFF',
};
export const success: ColorSet = {
  lighter: '#D3FCD2', light: '#77ED8B', main: '#22C55E', dark: '#118D57', darker: '#065E49', contrastText: '#FFFFFF',
};
export const warning: ColorSet = {
  lighter: '#FFF5CC', light: '#FFD666', main: '#FFAB00', dark: '#B76E00', darker: '#7A4100', contrastText: '#1C252E',
};
export const error: ColorSet = {
  lighter: '#FFE9D5', light: '#FFAC82', main: '#FF5630', dark: '#B71D18', darker: '#7A0916', contrastText: '#FFFFFF',
};
