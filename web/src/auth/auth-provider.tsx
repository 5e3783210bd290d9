import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import { authApi } from '../api/auth';
import { isApiError, setAccessToken, setTokenHooks } from '../api/client';
import type { LanguageCode, LoginRequest, Profile, RegisterRequest } from '../api/types';
import { useOnline } from '../components/use-online';
import { isSupportedLanguage } from '../locales/i18n';
import { authReducer, initialAuthState } from './auth-state';
import { AuthContext, type AuthContextValue } from './context';
import { clearTokens, readProfileSnapshot, readTokens, writeProfileSnapshot, writeTokens } from './token-storage';

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

/** A reply that refuses the credentials (as opposed to a network error, an abort or a server fault). */
export function isRefusal(error: unknown): boolean {
  return isApiError(error) && (error.status === 401 || error.status === 403);
}

/**
 * Trades the stored refresh token for a new pair: true when renewed, false when there is none or
 * the server refuses it (401/403). Anything else (offline, aborted, 5xx) is thrown: the session is
 * kept and the caller may try again.
 */
async function refreshTokens(): Promise<boolean> {
  const { refresh } = readTokens();
  if (!refresh) return false;
  try {
    const reply = await authApi.refresh(refresh);
    startSession(reply.data.token.access, reply.data.token.refresh);
    return true;
  } catch (error) {
    if (isRefusal(error)) return false;
    throw error;
  }
}

/** Waits before the n-th retry of the start-up (0.25 s, 0.5 s, 1 s … at most 8 s). */
export function retryDelay(attempt: number): number {
  return Math.min(250 * 2 ** attempt, 8000);
}

/** The pages that open offline with the profile last read (the refiller's app, issue 30). */
export const OFFLINE_FIRST_PATH = /^\/my-day(\/|$)/;

/** One start-up attempt: the profile, null when signed out for good; throws when worth retrying. */
async function startUp(): Promise<Profile | null> {
  const { access } = readTokens();
  if (!access) {
    endSession();
    return null;
  }
  let valid = true;
  try {
    await authApi.verify(access);
  } catch (error) {
    if (!isApiError(error) || ![400, 401, 403].includes(error.status)) throw error;
    valid = false;
  }
  if (valid) setAccessToken(access);
  else if (!(await refreshTokens())) {
    endSession();
    return null;
  }
  try {
    const me = await authApi.me();
    return me.data;
  } catch (error) {
    // A 401 the refresh could not cure has already ended the session (onUnauthorized).
    if (isRefusal(error)) return null;
    throw error;
  }
}

export function AuthProvider({ children, onSignedOut }: Props) {
  const [state, dispatch] = useReducer(authReducer, initialAuthState);
  const { i18n, t } = useTranslation();
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

  // Start: read the stored token, verify it, load the profile (spec section 4). Only a refusal
  // signs the user out; a network error, an aborted request (a reload or navigation while starting)
  // or a server fault is retried with back-off while an offline notice shows, tokens untouched.
  const [retrying, setRetrying] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const leaving = () => {
      cancelled = true;
    };
    window.addEventListener('pagehide', leaving);
    const attempt = (count: number) => {
      startUp().then(
        (user) => {
          if (cancelled) return;
          setRetrying(false);
          dispatch({ type: 'INITIAL', user });
        },
        (error: unknown) => {
          if (cancelled) return;
          console.warn('Session start-up failed; retrying', error);
          setRetrying(true);
          // The refiller's app opens offline as the user last seen with a stored session; the
          // start-up goes on retrying, and a refusal then signs out as usual.
          const { access } = readTokens();
          const snapshot = access ? readProfileSnapshot<Profile>() : null;
          if (count === 0 && snapshot && OFFLINE_FIRST_PATH.test(window.location.pathname)) {
            // Its calls carry the stored token (an expired one is refreshed as usual).
            setAccessToken(access);
            dispatch({ type: 'INITIAL', user: snapshot });
          }
          timer = setTimeout(() => attempt(count + 1), retryDelay(count));
        },
      );
    };
    attempt(0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      window.removeEventListener('pagehide', leaving);
    };
  }, []);

  // The browser's own view of the network, for the same notice mid-session.
  const offline = !useOnline();

  // The profile as last read, for an offline start of the refiller's app.
  useEffect(() => {
    if (state.status === 'authenticated') writeProfileSnapshot(state.user);
  }, [state]);

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
  const renewTokens = useCallback((access: string, refresh: string | null) => startSession(access, refresh), []);

  const value = useMemo<AuthContextValue>(
    () => ({ status: state.status, user: state.user, login, register, logout, switchLanguage, updateUser, renewTokens }),
    [state, login, register, logout, switchLanguage, updateUser, renewTokens],
  );

  return (
    <AuthContext.Provider value={value}>
      {(retrying || offline) && (
        <Alert
          severity="warning"
          role="status"
          data-testid="offline-notice"
          sx={{ position: 'fixed', top: 8, left: '50%', transform: 'translateX(-50%)', zIndex: 2000, boxShadow: 3 }}
        >
          {t('app.offline')}
        </Alert>
      )}
      {children}
    </AuthContext.Provider>
  );
}
