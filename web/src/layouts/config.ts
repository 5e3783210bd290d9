/** Layout sizes of spec section 9. */
export const LAYOUT = {
  headerMobile: 64,
  headerDesktop: 80,
  headerDesktopOffset: 64,
  headerShrinkThreshold: 80,
  navVertical: 280,
  navMini: 88,
  navHorizontal: 64,
  menuWidth: 160,
  accountMenuWidth: 200,
  avatarGroupMax: 4,
} as const;
