import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSettings } from './context';
import { SettingsProvider } from './settings-provider';
import { parseSettings, readSettings } from './storage';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY } from './types';

function Probe() {
  const settings = useSettings();
  return (
    <div>
      <span data-testid="mode">{settings.themeMode}</span>
      <span data-testid="layout">{settings.themeLayout}</span>
      <span data-testid="preset">{settings.themeColorPresets}</span>
      <span data-testid="can-reset">{String(settings.canReset)}</span>
      <button onClick={() => settings.onUpdate({ themeMode: 'dark', themeLayout: 'mini' })}>update</button>
      <button onClick={settings.onReset}>reset</button>
    </div>
  );
}

describe('settings', () => {
  it('starts from the spec defaults', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      themeMode: 'light',
      themeDirection: 'ltr',
      themeContrast: 'default',
      themeLayout: 'vertical',
      themeColorPresets: 'default',
      themeStretch: false,
    });
    expect(readSettings(localStorage)).toEqual(DEFAULT_SETTINGS);
  });

  it('falls back to defaults for broken or unknown values', () => {
    expect(parseSettings('not json')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings('{"themeMode":"purple","themeStretch":"yes","themeLayout":"mini"}')).toEqual({
      ...DEFAULT_SETTINGS,
      themeLayout: 'mini',
    });
  });

  it('persists changes in local storage under "settings" and restores them', () => {
    const first = render(
      <SettingsProvider>
        <Probe />
      </SettingsProvider>,
    );
    act(() => screen.getByText('update').click());
    expect(JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? '{}')).toMatchObject({ themeMode: 'dark', themeLayout: 'mini' });
    expect(screen.getByTestId('can-reset').textContent).toBe('true');
    first.unmount();

    render(
      <SettingsProvider>
        <Probe />
      </SettingsProvider>,
    );
    expect(screen.getByTestId('mode').textContent).toBe('dark');
    expect(screen.getByTestId('layout').textContent).toBe('mini');
  });

  it('reset removes the stored settings', () => {
    localStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify({ ...DEFAULT_SETTINGS, themeMode: 'dark' }));
    render(
      <SettingsProvider>
        <Probe />
      </SettingsProvider>,
    );
    act(() => screen.getByText('reset').click());
    expect(localStorage.getItem(SETTINGS_STORAGE_KEY)).toBeNull();
    expect(screen.getByTestId('mode').textContent).toBe('light');
    expect(screen.getByTestId('can-reset').textContent).toBe('false');
  });

  it('follows changes made in another tab', () => {
    render(
      <SettingsProvider>
        <Probe />
      </SettingsProvider>,
    );
    const value = JSON.stringify({ ...DEFAULT_SETTINGS, themeColorPresets: 'orange', themeMode: 'dark' });
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: SETTINGS_STORAGE_KEY, newValue: value }));
    });
    expect(screen.getByTestId('preset').textContent).toBe('orange');
    expect(screen.getByTestId('mode').textContent).toBe('dark');

    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'unrelated', newValue: '1' }));
    });
    expect(screen.getByTestId('preset').textContent).toBe('orange');

    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: SETTINGS_STORAGE_KEY, newValue: null }));
    });
    expect(screen.getByTestId('preset').textContent).toBe('default');
  });
});
