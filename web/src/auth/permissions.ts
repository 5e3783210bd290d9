import type { Profile } from '../api/types';

/** True when the user may use the module (permission key): all-modules access or the key is granted. */
export function hasModule(user: Profile | null | undefined, key: string): boolean {
  if (!user) return false;
  if (user.module?.access_all_modules) return true;
  return (user.module?.modules ?? []).includes(key) || (user.permission ?? []).includes(key);
}

/** The role name used by navigation `roles` lists; 'admin' when the user has none (spec section 6). */
export function currentRole(user: Profile | null | undefined): string {
  return user?.role_level || 'admin';
}
