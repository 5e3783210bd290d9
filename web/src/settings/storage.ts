import {
  COLOR_PRESETS,
  DEFAULT_SETTINGS,
  SETTINGS_STORAGE_KEY,
  THEME_CONTRASTS,
  THEME_DIRECTIONS,
  THEME_LAYOUTS,
  THEME_MODES,
  type Settings,
} from './types';

function pick<T extends string>(allowed: readonly T[], value: unknown, fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** Reads settings from any JSON text; unknown or broken values fall back to the defaults. */
export function parseSettings(raw: string | null | undefined): Settings {
  if (!raw) return { ...DEFAULT_SETTINGS };
  let value: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object') return { ...DEFAULT_SETTINGS };
    value = parsed as Record<string, unknown>;
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
  return {
    themeMode: pick(THEME_MODES, value.themeMode, DEFAULT_SETTINGS.themeMode),
    themeDirection: pick(THEME_DIRECTIONS, value.themeDirection, DEFAULT_SETTINGS.themeDirection),
    themeContrast: pick(THEME_CONTRASTS, value.themeContrast, DEFAULT_SETTINGS.themeContrast),
    themeLayout: pick(THEME_LAYOUTS, value.themeLayout, DEFAULT_SETTINGS.themeLayout),
    themeColorPresets: pick(COLOR_PRESETS, value.themeColorPresets, DEFAULT_SETTINGS.themeColorPresets),
    themeStretch: typeof value.themeStretch === 'boolean' ? value.themeStretch : DEFAULT_SETTINGS.themeStretch,
  };
}

export function readSettings(storage: Storage): Settings {
  try {
    return parseSettings(storage.getItem(SETTINGS_STORAGE_KEY));
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function writeSettings(storage: Storage, settings: Settings): void {
  try {
    storage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Quota or privacy mode: settings then last for this tab only.
  }
}

export function clearSettings(storage: Storage): void {
  try {
    storage.removeItem(SETTINGS_STORAGE_KEY);
  } catch {
    // See writeSettings.
  }
}

export function sameSettings(a: Settings, b: Settings): boolean {
  return (Object.keys(a) as (keyof Settings)[]).every((key) => a[key] === b[key]);
}
