import { useCallback, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { authApi } from '../api/auth';
import { isApiError, setAccessToken, setTokenHooks } from '../api/client';
import type { LanguageCode, LoginRequest, Profile, RegisterRequest } from '../api/types';
import { isSupportedLanguage } from '../locales/i18n';
import { authReducer, initialAuthState } from './auth-state';
import { AuthContext, type AuthContextValue } from './context';
import { clearTokens, readTokens, writeTokens } from './token-storage';

interface Props {
  children: ReactNode;
  /** Called after the session ends, e.g. to drop cached server data. */
  onSignedOut?: () => void;
}

function startSession(access: string, refresh: string | null) {
  writeTokens(access, refresh);
  setAccessToken(access);
}

function endSession() {
  clearTokens();
  setAccessToken(null);
}

/** Trades the stored refresh token for a new pair; false when there is none or it is refused. */
async function refreshTokens(): Promise<boolean> {
  const { refresh } = readTokens();
  if (!refresh) return false;
  try {
    const reply = await authApi.refresh(refresh);
    startSession(reply.data.token.access, reply.data.token.refresh);
    return true;
  } catch {
    return false;
  }
}

export function AuthProvider({ children, onSignedOut }: Props) {
  const [state, dispatch] = useReducer(authReducer, initialAuthState);
  const { i18n } = useTranslation();
  const signedOutRef = useRef(onSignedOut);

  useEffect(() => {
    signedOutRef.current = onSignedOut;
  }, [onSignedOut]);

  // The transport calls back here when a token expires mid-session.
  useEffect(() => {
    let pending: Promise<boolean> | null = null;
    setTokenHooks({
      refresh: () => {
        pending ??= refreshTokens().finally(() => {
          pending = null;
        });
        return pending;
      },
      onUnauthorized: () => {
        endSession();
        dispatch({ type: 'LOGOUT' });
        signedOutRef.current?.();
      },
    });
    return () => setTokenHooks({});
  }, []);

  // Start: read the stored token, verify it, load the profile (spec section 4).
  useEffect(() => {
    let cancelled = false;
    const initialize = async () => {
      try {
        const { access } = readTokens();
        if (!access) {
          endSession();
          return null;
        }
        let valid = true;
        try {
          await authApi.verify(access);
        } catch (error) {
          if (!isApiError(error) || error.status !== 401) throw error;
          valid = false;
        }
        if (valid) setAccessToken(access);
        else if (!(await refreshTokens())) {
          endSession();
          return null;
        }
        const me = await authApi.me();
        return me.data;
      } catch (error) {
        console.error('Session initialisation failed', error);
        endSession();
        return null;
      }
    };
    void initialize().then((user) => {
      if (!cancelled) dispatch({ type: 'INITIAL', user });
    });
    return () => {
      cancelled = true;
    };
  }, []);

  // The UI speaks the signed-in user's language.
  const userLanguage = state.user?.language;
  useEffect(() => {
    if (isSupportedLanguage(userLanguage) && i18n.language !== userLanguage) {
      void i18n.changeLanguage(userLanguage);
    }
  }, [userLanguage, i18n]);

  const login = useCallback(async (input: LoginRequest) => {
    const reply = await authApi.login(input);
    startSession(reply.data.token.access, reply.data.token.refresh);
    dispatch({ type: 'LOGIN', user: reply.data.user });
  }, []);

  const register = useCallback(async (input: RegisterRequest) => {
    const reply = await authApi.register(input);
    startSession(reply.accessToken, reply.refreshToken ?? null);
    dispatch({ type: 'REGISTER', user: reply.user });
  }, []);

  const logout = useCallback(async () => {
    try {
      endSession();
      dispatch({ type: 'LOGOUT' });
      signedOutRef.current?.();
    } catch (error) {
      console.error('Logout failed', error);
    }
  }, []);

  const signedIn = state.status === 'authenticated';
  const switchLanguage = useCallback(
    async (language: LanguageCode) => {
      await i18n.changeLanguage(language);
      if (!signedIn) return;
      const reply = await authApi.switchLanguage(language);
      dispatch({ type: 'UPDATE_USER', patch: { language: reply.data?.language ?? language } });
    },
    [i18n, signedIn],
  );

  const updateUser = useCallback((patch: Partial<Profile>) => dispatch({ type: 'UPDATE_USER', patch }), []);

  const value = useMemo<AuthContextValue>(
    () => ({ status: state.status, user: state.user, login, register, logout, switchLanguage, updateUser }),
    [state, login, register, logout, switchLanguage, updateUser],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
