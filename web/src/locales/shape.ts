/** A catalogue's shape with every text widened to `string`: what each other language must fill. */
export type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

/** A tree of texts, as the catalogue files hold them. */
export type Tree = { [key: string]: string | Tree };

/**
 * Deep-merges the shared catalogue with the areas' own: the keys stay where they were
 * (`errors.userCreate` whether it lives in `locales/` or `features/users/locales/`). A text
 * defined twice is a mistake and throws, so no area silently overrides another.
 */
export function mergeCatalogues(parts: Tree[], path = ''): Tree {
  const out: Tree = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      const at = path ? `${path}.${key}` : key;
      const existing = out[key];
      if (existing === undefined) {
        out[key] = typeof value === 'string' ? value : mergeCatalogues([value], at);
      } else if (typeof existing === 'string' || typeof value === 'string') {
        throw new Error(`translation key defined twice: ${at}`);
      } else {
        out[key] = mergeCatalogues([existing, value], at);
      }
    }
  }
  return out;
}
