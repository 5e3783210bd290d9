import type { Catalogue } from './i18n';
import { mergeCatalogues, type Shape, type Tree } from './shape';

// The whole French catalogue, a chunk of its own that i18n.ts loads when French is chosen: the shared
// strings and every area's (`features/<area>/locales/`), under their usual keys.
const parts = import.meta.glob<Tree>(['./fr.ts', '../features/*/locales/fr.ts', '../components/*/locales/fr.ts'], {
  eager: true,
  import: 'fr',
});

export default mergeCatalogues(Object.values(parts)) as Shape<Catalogue>;
