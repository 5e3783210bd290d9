import type { Catalogue } from './i18n';
import { mergeCatalogues, type Tree } from './shape';

// The whole English catalogue, a chunk of its own that i18n.ts loads when English is chosen: the shared
// strings and every area's (`features/<area>/locales/`), under their usual keys.
const parts = import.meta.glob<Tree>(['./en.ts', '../features/*/locales/en.ts', '../components/*/locales/en.ts'], {
  eager: true,
  import: 'en',
});

export default mergeCatalogues(Object.values(parts)) as Catalogue;
