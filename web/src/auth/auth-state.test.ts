import { describe, expect, it } from 'vitest';
import type { Profile } from '../api/types';
import { authReducer, initialAuthState } from './auth-state';

const user = { id: 'u1', name: 'Ann', language: 'en' } as Profile;

describe('session state machine (spec section 4)', () => {
  it('starts loading', () => {
    expect(initialAuthState).toEqual({ status: 'loading', user: null });
  });

  it('settles on authenticated or unauthenticated after start', () => {
    expect(authReducer(initialAuthState, { type: 'INITIAL', user })).toEqual({ status: 'authenticated', user });
    expect(authReducer(initialAuthState, { type: 'INITIAL', user: null })).toEqual({ status: 'unauthenticated', user: null });
  });

  it('login and register set the user; logout clears it', () => {
    const out = { status: 'unauthenticated', user: null } as const;
    const signedIn = authReducer(out, { type: 'LOGIN', user });
    expect(signedIn).toEqual({ status: 'authenticated', user });
    expect(authReducer(out, { type: 'REGISTER', user })).toEqual({ status: 'authenticated', user });
    expect(authReducer(signedIn, { type: 'LOGOUT' })).toEqual({ status: 'unauthenticated', user: null });
  });

  it('updates the signed-in user only', () => {
    const signedIn = authReducer(initialAuthState, { type: 'INITIAL', user });
    expect(authReducer(signedIn, { type: 'UPDATE_USER', patch: { language: 'fr' } }).user?.language).toBe('fr');
    const out = authReducer(initialAuthState, { type: 'INITIAL', user: null });
    expect(authReducer(out, { type: 'UPDATE_USER', patch: { language: 'fr' } })).toBe(out);
  });
});
