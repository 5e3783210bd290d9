import { createContext, useContext } from 'react';
import type { LanguageCode, LoginRequest, Profile, RegisterRequest } from '../api/types';
import type { SessionStatus } from './auth-state';

export interface AuthContextValue {
  status: SessionStatus;
  user: Profile | null;
  login: (input: LoginRequest) => Promise<void>;
  register: (input: RegisterRequest) => Promise<void>;
  logout: () => Promise<void>;
  /** Changes the UI language now and saves it on the server for a signed-in user. */
  switchLanguage: (language: LanguageCode) => Promise<void>;
  updateUser: (patch: Partial<Profile>) => void;
  /** Goes on with tokens the server handed out (after one's own password change). */
  renewTokens?: (access: string, refresh: string | null) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used inside AuthProvider');
  return context;
}
