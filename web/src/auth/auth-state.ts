import type { Profile } from '../api/types';

/** Session states of spec section 4. */
export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthState {
  status: SessionStatus;
  user: Profile | null;
}

export type AuthAction =
  | { type: 'INITIAL'; user: Profile | null }
  | { type: 'LOGIN'; user: Profile }
  | { type: 'REGISTER'; user: Profile }
  | { type: 'LOGOUT' }
  | { type: 'UPDATE_USER'; patch: Partial<Profile> };

export const initialAuthState: AuthState = { status: 'loading', user: null };

export function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'INITIAL':
      return { status: action.user ? 'authenticated' : 'unauthenticated', user: action.user };
    case 'LOGIN':
    case 'REGISTER':
      return { status: 'authenticated', user: action.user };
    case 'LOGOUT':
      return { status: 'unauthenticated', user: null };
    case 'UPDATE_USER':
      return state.user ? { ...state, user: { ...state.user, ...action.patch } } : state;
    default:
      return state;
  }
}
