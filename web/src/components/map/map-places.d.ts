// The place names' first file, emitted by the build (scripts/map-places.ts).
declare module 'virtual:map-places' {
  /** Its address on the app's own origin; the cells' files sit beside it. */
  export const worldUrl: string;
}
