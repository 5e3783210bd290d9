import { createElement } from 'react';
import { afterAll, afterEach, vi } from 'vitest';
import { cleanup, configure, render } from '@testing-library/react';
import { withEmotionCache } from '@emotion/react';
import type { EmotionCache } from '@emotion/cache';

// The workers run one test file after another without isolation (vite.config.ts): each file
// starts from fresh modules of src/ (its own `vi.mock`s, i18n, caches); the dependencies stay loaded.
vi.resetModules();

// The UI language's strings arrive asynchronously (locales/i18n.ts): each file starts with all of
// them in, the areas' too, as the app renders a screen only after them.
const { i18nReady, loadAreaCatalogues } = await import('../locales/i18n');
await i18nReady;
await loadAreaCatalogues();
// aws-amplify's REST client too (the app loads it with its first request): a request leaves at once.
await (await import('../api/client')).loadTransport();

// The suite shares two cores with Rust builds (CI, a developer's machine): what a test waits for
// (findBy…, waitFor) may come later than the default 1 s without anything being wrong.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});

let emotion: EmotionCache | undefined;

/** The emotion cache MUI styles into when no CacheProvider is above (the tests render without one). */
function defaultEmotionCache(): EmotionCache {
  if (!emotion) {
    const Probe = withEmotionCache((_props: object, cache: EmotionCache) => {
      emotion = cache;
      return null;
    });
    render(createElement(Probe));
    cleanup();
  }
  return emotion!;
}

// The next file starts as in a process of its own: no stubbed globals or fake timers left, and no
// MUI style rules of this one in <head> (they would pile up there, and jsdom's getComputedStyle
// walks every one of them).
afterAll(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  const cache = defaultEmotionCache();
  cache.sheet.flush();
  for (const key of Object.keys(cache.inserted)) delete cache.inserted[key];
});
