import { createContext, useContext } from 'react';
import type { Settings } from './types';

export interface SettingsContextValue extends Settings {
  onUpdate: (patch: Partial<Settings>) => void;
  onReset: () => void;
  canReset: boolean;
  open: boolean;
  onToggle: () => void;
  onClose: () => void;
}

export const SettingsContext = createContext<SettingsContextValue | null>(null);

export function useSettings(): SettingsContextValue {
  const context = useContext(SettingsContext);
  if (!context) throw new Error('useSettings must be used inside SettingsProvider');
  return context;
}
