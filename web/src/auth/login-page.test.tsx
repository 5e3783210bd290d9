import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../locales/i18n';
import { ApiError } from '../api/client';
import { AuthContext, type AuthContextValue } from './context';
import LoginPage from './pages/login';
import { validateLogin, validateRegister } from './validation';

function renderLogin(login: AuthContextValue['login']) {
  const value: AuthContextValue = {
    status: 'unauthenticated',
    user: null,
    login,
    register: async () => {},
    logout: async () => {},
    switchLanguage: async () => {},
    updateUser: () => {},
  };
  const router = createMemoryRouter([{ path: '/auth/jwt/login', element: <LoginPage /> }], {
    initialEntries: ['/auth/jwt/login'],
  });
  render(
    <AuthContext.Provider value={value}>
      <RouterProvider router={router} />
    </AuthContext.Provider>,
  );
}

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('sign-in and register validation', () => {
  it('checks the fields', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({
      email: { key: 'validation.required' },
      password: { key: 'validation.required' },
    });
    expect(validateLogin({ email: 'nope', password: 'x' })).toEqual({ email: { key: 'validation.email' } });
    expect(validateRegister({ firstName: 'A', lastName: 'B', email: 'a@b.co', password: 'short' })).toEqual({
      password: { key: 'validation.passwordMin', values: { count: 8 } },
    });
  });

  it.each([
    ['en', 'This field is required', 'Enter a valid e-mail address'],
    ['fr', 'Ce champ est obligatoire', 'Saisissez une adresse e-mail valide'],
    ['it', 'Campo obbligatorio', 'Inserisci un indirizzo e-mail valido'],
  ])('shows field messages in %s', async (language, required, email) => {
    await i18next.changeLanguage(language);
    const login = vi.fn(async () => {});
    renderLogin(login);
    const submit = await screen.findByTestId('login-submit');
    await act(async () => fireEvent.click(submit));
    expect(screen.getAllByText(required).length).toBe(2);
    fireEvent.change(document.querySelector('input[name=email]')!, { target: { value: 'not-an-address' } });
    await act(async () => fireEvent.click(submit));
    expect(screen.getByText(email)).toBeTruthy();
    expect(login).not.toHaveBeenCalled();
  });

  it('shows a refused sign-in in the UI language', async () => {
    await i18next.changeLanguage('fr');
    renderLogin(async () => {
      throw new ApiError(401, 'This account is deactivated');
    });
    fireEvent.change(document.querySelector('input[name=email]')!, { target: { value: 'a@b.co' } });
    fireEvent.change(document.querySelector('input[name=password]')!, { target: { value: 'whatever1' } });
    await act(async () => fireEvent.click(await screen.findByTestId('login-submit')));
    expect((await screen.findByTestId('login-error')).textContent).toBe('Ce compte est désactivé');
  });
});
