import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { CacheProvider } from '@emotion/react';
import createCache, { type EmotionCache } from '@emotion/cache';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider as MuiThemeProvider } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import '@fontsource/public-sans/400.css';
import '@fontsource/public-sans/500.css';
import '@fontsource/public-sans/600.css';
import '@fontsource/public-sans/700.css';
import '@fontsource/public-sans/800.css';
import { useSettings } from '../settings/context';
import { directionOf } from '../locales/i18n';
import { createAppTheme } from './create-theme';

const ltrCache = createCache({ key: 'mui' });

export function ThemeProvider({ children }: { children: ReactNode }) {
  const settings = useSettings();
  const { i18n } = useTranslation();
  const language = i18n.language;
  const direction = directionOf(language);
  const [rtlCache, setRtlCache] = useState<EmotionCache | null>(null);
  useEffect(() => {
    if (direction === 'rtl' && !rtlCache) void import('./rtl-cache').then((module) => setRtlCache(module.rtlCache));
  }, [direction, rtlCache]);

  const theme = useMemo(
    () =>
      createAppTheme({
        settings: {
          themeMode: settings.themeMode,
          themeContrast: settings.themeContrast,
          themeColorPresets: settings.themeColorPresets,
        },
        direction,
        language,
      }),
    [settings.themeMode, settings.themeContrast, settings.themeColorPresets, direction, language],
  );

  return (
    <CacheProvider value={direction === 'rtl' && rtlCache ? rtlCache : ltrCache}>
      <MuiThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </MuiThemeProvider>
    </CacheProvider>
  );
}
