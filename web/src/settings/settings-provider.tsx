import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { SettingsContext, type SettingsContextValue } from './context';
import { clearSettings, parseSettings, readSettings, sameSettings, writeSettings } from './storage';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, type Settings } from './types';

interface Props {
  children: ReactNode;
  storage?: Storage;
}

/** UI settings kept in local storage under `settings` and followed across tabs. */
export function SettingsProvider({ children, storage = window.localStorage }: Props) {
  const [settings, setSettings] = useState<Settings>(() => readSettings(storage));
  const [open, setOpen] = useState(false);

  useEffect(() => {
    // Another tab wrote the key: take its value (a removed key means the defaults).
    const onStorage = (event: StorageEvent) => {
      if (event.key !== SETTINGS_STORAGE_KEY && event.key !== null) return;
      setSettings(event.key === null ? { ...DEFAULT_SETTINGS } : parseSettings(event.newValue));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const onUpdate = useCallback(
    (patch: Partial<Settings>) => {
      setSettings((previous) => {
        const next = { ...previous, ...patch };
        writeSettings(storage, next);
        return next;
      });
    },
    [storage],
  );

  const onReset = useCallback(() => {
    clearSettings(storage);
    setSettings({ ...DEFAULT_SETTINGS });
  }, [storage]);

  const onToggle = useCallback(() => setOpen((value) => !value), []);
  const onClose = useCallback(() => setOpen(false), []);

  const value = useMemo<SettingsContextValue>(
    () => ({
      ...settings,
      onUpdate,
      onReset,
      canReset: !sameSettings(settings, DEFAULT_SETTINGS),
      open,
      onToggle,
      onClose,
    }),
    [settings, onUpdate, onReset, open, onToggle, onClose],
  );

  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}
