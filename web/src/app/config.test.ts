import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, loadRuntimeConfig, readRuntimeConfig, resolveApiEndpoint, runtimeConfig, setRuntimeConfig } from './config';

const reply = (body: unknown, ok = true) => (async () => ({ ok, json: async () => body })) as unknown as typeof fetch;

describe('runtime configuration', () => {
  it('has no map tiles by default', async () => {
    expect(DEFAULT_CONFIG.mapTileUrl).toBe('');
    expect(await loadRuntimeConfig(reply({ apiBaseUrl: '' }))).toEqual({ apiBaseUrl: '', mapTileUrl: '', mapTileAttribution: '' });
    expect(await loadRuntimeConfig(reply(null, false))).toEqual(DEFAULT_CONFIG);
    expect(await loadRuntimeConfig((async () => Promise.reject(new Error('offline'))) as unknown as typeof fetch)).toEqual(DEFAULT_CONFIG);
  });

  it('reads the tile URL and its attribution when given, ignoring what is not text', () => {
    expect(readRuntimeConfig({ apiBaseUrl: 'https://api.example.com', mapTileUrl: ' https://t.example.com/{z}/{x}/{y}.png ', mapTileAttribution: '© Tiles' })).toEqual({
      apiBaseUrl: 'https://api.example.com',
      mapTileUrl: 'https://t.example.com/{z}/{x}/{y}.png',
      mapTileAttribution: '© Tiles',
    });
    expect(readRuntimeConfig({ mapTileUrl: 42 })).toEqual(DEFAULT_CONFIG);
    expect(resolveApiEndpoint(readRuntimeConfig({ apiBaseUrl: 'https://api.example.com/' }), 'http://here')).toBe('https://api.example.com');
  });

  it('keeps the loaded configuration for the screens', () => {
    setRuntimeConfig({ ...DEFAULT_CONFIG, mapTileUrl: 'x' });
    expect(runtimeConfig().mapTileUrl).toBe('x');
    setRuntimeConfig(DEFAULT_CONFIG);
    expect(runtimeConfig()).toEqual(DEFAULT_CONFIG);
  });
});
