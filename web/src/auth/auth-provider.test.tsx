import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../locales/i18n';
import { getAccessToken, setAccessToken } from '../api/client';
import type { Profile } from '../api/types';
import { fakeApi } from '../test/fake-api';
import { AuthProvider, retryDelay } from './auth-provider';
import { useAuth } from './context';
import { ACCESS_TOKEN_KEY, PROFILE_KEY, REFRESH_TOKEN_KEY } from './token-storage';

const profile = {
  id: 'u1',
  name: 'Ann Admin',
  displayName: 'Ann Admin',
  email: 'ann@example.com',
  phone_number: '',
  permission: [],
  positions: [],
  module: { modules: [], access_all_modules: true },
  language: 'fr',
  role_level: 'admin',
  access_all_machines: true,
} as Profile;

function Probe() {
  const auth = useAuth();
  return (
    <div>
      <span data-testid="status">{auth.status}</span>
      <span data-testid="user">{auth.user?.email ?? ''}</span>
      <span data-testid="language">{auth.user?.language ?? ''}</span>
      <button onClick={() => void auth.login({ email: 'ann@example.com', password: 'secret123' })}>login</button>
      <button onClick={() => void auth.logout()}>logout</button>
      <button onClick={() => void auth.switchLanguage('it')}>italian</button>
    </div>
  );
}

function renderProvider() {
  return render(
    <AuthProvider>
      <Probe />
    </AuthProvider>,
  );
}

afterEach(async () => {
  vi.unstubAllGlobals();
  setAccessToken(null);
  await i18next.changeLanguage('en');
});

describe('AuthProvider', () => {
  it('without a stored token ends unauthenticated without calling the server', async () => {
    const { calls } = fakeApi({});
    renderProvider();
    expect(screen.getByTestId('status').textContent).toBe('loading');
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('unauthenticated'));
    expect(calls).toHaveLength(0);
  });

  it('verifies a stored token, loads the profile and takes the user language', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'good');
    const { calls } = fakeApi({
      'POST /auth/token/verify/': () => ({ status: 200, body: { data: { valid: true } } }),
      'GET /api/users/me/': () => ({ status: 200, body: { data: profile } }),
    });
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('authenticated'));
    expect(screen.getByTestId('user').textContent).toBe('ann@example.com');
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /auth/token/verify/', 'GET /api/users/me/']);
    expect(calls[0].body).toEqual({ token: 'good' });
    expect(calls[1].headers.authorization).toBe('Bearer good');
    await waitFor(() => expect(i18next.language).toBe('fr'));
  });

  it('an invalid token without refresh ends unauthenticated and is cleared', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'bad');
    fakeApi({ 'POST /auth/token/verify/': () => ({ status: 401, body: { message: 'invalid' } }) });
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('unauthenticated'));
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  });

  it('an expired token is renewed with the refresh token', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'expired');
    localStorage.setItem(REFRESH_TOKEN_KEY, 'r1');
    fakeApi({
      'POST /auth/token/verify/': () => ({ status: 401, body: { message: 'expired' } }),
      'POST /auth/token/refresh/': () => ({ status: 200, body: { data: { token: { access: 'fresh', refresh: 'r2' } } } }),
      'GET /api/users/me/': (call) =>
        call.headers.authorization === 'Bearer fresh' ? { status: 200, body: { data: profile } } : { status: 401, body: {} },
    });
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('authenticated'));
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('fresh');
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('r2');
  });

  it('a failing start is retried with an offline notice and keeps the session', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'good');
    localStorage.setItem(REFRESH_TOKEN_KEY, 'r1');
    const log = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let failures = 2;
    fakeApi({
      'POST /auth/token/verify/': () => {
        if (failures > 0) {
          failures -= 1;
          if (failures === 1) throw new TypeError('Failed to fetch');
          return { status: 503, body: { message: 'down' } };
        }
        return { status: 200, body: {} };
      },
      'GET /api/users/me/': () => ({ status: 200, body: { data: profile } }),
    });
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('offline-notice')).toBeTruthy());
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('good');
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('authenticated'), { timeout: 3000 });
    expect(screen.queryByTestId('offline-notice')).toBeNull();
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('r1');
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  it('offline on the refiller’s app: opens as the user last read while the start-up retries (issue 30)', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'good');
    localStorage.setItem(PROFILE_KEY, JSON.stringify(profile));
    window.history.pushState(null, '', '/my-day/queue');
    const log = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let reachable = false;
    fakeApi({
      'POST /auth/token/verify/': () => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return { status: 200, body: {} };
      },
      'GET /api/users/me/': () => ({ status: 200, body: { data: { ...profile, email: 'ann.new@example.com' } } }),
    });
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('authenticated'));
    expect(screen.getByTestId('user').textContent).toBe('ann@example.com');
    // Bookings sent meanwhile carry the stored token.
    expect(getAccessToken()).toBe('good');
    reachable = true;
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('ann.new@example.com'), { timeout: 3000 });
    // The profile is kept by an effect after the render that shows it: waited for too.
    await waitFor(() => expect(JSON.parse(localStorage.getItem(PROFILE_KEY) ?? '{}').email).toBe('ann.new@example.com'));
    window.history.pushState(null, '', '/');
    log.mockRestore();
  });

  it('offline elsewhere: the kept profile is not used, the start-up waits', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'good');
    localStorage.setItem(PROFILE_KEY, JSON.stringify(profile));
    window.history.pushState(null, '', '/dashboard');
    const log = vi.spyOn(console, 'warn').mockImplementation(() => {});
    fakeApi({
      'POST /auth/token/verify/': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('offline-notice')).toBeTruthy());
    expect(screen.getByTestId('status').textContent).toBe('loading');
    window.history.pushState(null, '', '/');
    log.mockRestore();
  });

  it('a refresh that gets no answer keeps the tokens; a refused one signs out', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'expired');
    localStorage.setItem(REFRESH_TOKEN_KEY, 'r1');
    const log = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let unreachable = true;
    fakeApi({
      'POST /auth/token/verify/': () => ({ status: 401, body: { message: 'expired' } }),
      'POST /auth/token/refresh/': () => {
        if (unreachable) {
          unreachable = false;
          throw new TypeError('Failed to fetch');
        }
        return { status: 401, body: { message: 'refused' } };
      },
    });
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('offline-notice')).toBeTruthy());
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('r1');
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('unauthenticated'), { timeout: 3000 });
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    log.mockRestore();
  });

  it('retries with a growing, capped delay', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(retryDelay)).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('login stores the token; logout clears it', async () => {
    fakeApi({
      'POST /auth/token/': () => ({ status: 200, body: { data: { token: { access: 'a1', refresh: 'r1' }, user: profile } } }),
    });
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('unauthenticated'));
    await act(async () => screen.getByText('login').click());
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('authenticated'));
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('a1');
    await act(async () => screen.getByText('logout').click());
    expect(screen.getByTestId('status').textContent).toBe('unauthenticated');
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  });

  it('switching language changes the UI and saves it for the user', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'good');
    const { calls } = fakeApi({
      'POST /auth/token/verify/': () => ({ status: 200, body: {} }),
      'GET /api/users/me/': () => ({ status: 200, body: { data: profile } }),
      'POST /api/settings/languges/switch/': (call) => ({
        status: 200,
        body: { message: 'ok', data: { language: (call.body as { language: string }).language } },
      }),
    });
    renderProvider();
    await waitFor(() => expect(screen.getByTestId('language').textContent).toBe('fr'));
    await act(async () => screen.getByText('italian').click());
    await waitFor(() => expect(screen.getByTestId('language').textContent).toBe('it'));
    expect(i18next.language).toBe('it');
    expect(calls.at(-1)?.body).toEqual({ language: 'it' });
  });
});
