import type { I18nKey } from '../locales/keys';

/** What a protected route tells the layout: its title, breadcrumb parents and permission key(s). */
export interface RouteHandle {
  title: I18nKey;
  /** Breadcrumb trail before the title, each with an optional link. */
  crumbs?: { title: I18nKey; href?: string }[];
  /** The screen needs this key (or any of these keys). */
  permission?: string | string[];
}
