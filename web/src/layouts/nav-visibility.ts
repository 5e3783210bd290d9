import type { Profile } from '../api/types';
import { currentRole, hasModule } from '../auth/permissions';

/** The part of a navigation item that decides whether it shows. */
export interface Visible {
  /** One key, or several of which any will do. */
  key?: string | readonly string[];
  roles?: string[];
  forceShow?: boolean;
  /** Only for a fleet administrator (who may change the operator's policy: its settings say `editable`). */
  fleetAdmin?: boolean;
  children?: Visible[];
}

/** What the navigation knows of the user besides their profile. */
export interface NavFlags {
  /** The operator's settings say the user may change the policy (users and roles administrator, all machines). */
  fleetAdmin: boolean;
}

const NO_FLAGS: NavFlags = { fleetAdmin: false };

export interface VisibleGroup<T extends Visible> {
  items: T[];
}

/**
 * Spec section 4 and 6: an item shows when the user has all-modules access or its key (any of
 * its keys) in the modules list; an item with a `roles` list only for those roles; a parent when any child shows.
 */
export function isItemVisible(item: Visible, user: Profile | null, flags: NavFlags = NO_FLAGS): boolean {
  if (item.forceShow) return true;
  if (item.fleetAdmin && !flags.fleetAdmin) return false;
  if (item.roles && !item.roles.includes(currentRole(user))) return false;
  if (item.children && item.children.length > 0) return item.children.some((child) => isItemVisible(child, user, flags));
  if (!item.key) return true;
  const keys = typeof item.key === 'string' ? [item.key] : item.key;
  return keys.some((key) => hasModule(user, key));
}

/** The items the user may see, children pruned the same way. */
export function filterNavItems<T extends Visible>(items: T[], user: Profile | null, flags: NavFlags = NO_FLAGS): T[] {
  return items
    .filter((item) => isItemVisible(item, user, flags))
    .map((item) =>
      item.children ? { ...item, children: filterNavItems(item.children as T[], user, flags) } : item,
    );
}

/** Groups keep their subheader only while some item is left. */
export function filterNavGroups<G extends VisibleGroup<T>, T extends Visible>(groups: G[], user: Profile | null, flags: NavFlags = NO_FLAGS): G[] {
  return groups
    .map((group) => ({ ...group, items: filterNavItems(group.items, user, flags) }))
    .filter((group) => group.items.length > 0);
}
