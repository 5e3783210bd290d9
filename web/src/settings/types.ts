export const THEME_MODES = ['light', 'dark'] as const;
export const THEME_DIRECTIONS = ['ltr', 'rtl'] as const;
export const THEME_CONTRASTS = ['default', 'bold'] as const;
export const THEME_LAYOUTS = ['vertical', 'horizontal', 'mini'] as const;
export const COLOR_PRESETS = ['default', 'cyan', 'purple', 'blue', 'orange', 'red'] as const;

export type ThemeMode = (typeof THEME_MODES)[number];
export type ThemeDirection = (typeof THEME_DIRECTIONS)[number];
export type ThemeContrast = (typeof THEME_CONTRASTS)[number];
export type ThemeLayout = (typeof THEME_LAYOUTS)[number];
export type ColorPreset = (typeof COLOR_PRESETS)[number];

export interface Settings {
  themeMode: ThemeMode;
  themeDirection: ThemeDirection;
  themeContrast: ThemeContrast;
  themeLayout: ThemeLayout;
  themeColorPresets: ColorPreset;
  themeStretch: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  themeMode: 'light',
  themeDirection: 'ltr',
  themeContrast: 'default',
  themeLayout: 'vertical',
  themeColorPresets: 'default',
  themeStretch: false,
};

export const SETTINGS_STORAGE_KEY = 'settings';
/** Width of the settings drawer (spec section 9). */
export const SETTINGS_DRAWER_WIDTH = 280;
/** Stretch only takes effect on screens wider than this. */
export const STRETCH_MIN_WIDTH = 1600;
