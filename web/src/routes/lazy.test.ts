import { describe, expect, it, vi } from 'vitest';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, isChunkLoadError, withChunkTimeout } from './lazy';
import { resolveApiEndpoint } from '../app/config';

describe('lazy chunks', () => {
  it('time out after 120 s', async () => {
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    vi.useFakeTimers();
    const pending = withChunkTimeout(() => new Promise(() => {}));
    const assertion = expect(pending).rejects.toBeInstanceOf(ChunkLoadError);
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS);
    await assertion;
    vi.useRealTimers();
  });

  it('turn a failed import into a chunk error', async () => {
    const error = await withChunkTimeout(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /x.js'))).catch(
      (e: unknown) => e,
    );
    expect(isChunkLoadError(error)).toBe(true);
    expect(isChunkLoadError(new Error('other'))).toBe(false);
  });
});

describe('runtime config', () => {
  it('uses the page origin when apiBaseUrl is empty', () => {
    expect(resolveApiEndpoint({ apiBaseUrl: '' }, 'http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(resolveApiEndpoint({ apiBaseUrl: 'https://api.example.com/' }, 'http://x')).toBe('https://api.example.com');
  });
});
