import type { Catalogue } from './i18n';
import { mergeCatalogues, type Shape, type Tree } from './shape';

// The whole Italian catalogue, a chunk of its own that i18n.ts loads when Italian is chosen: the shared
// strings and every area's (`features/<area>/locales/`), under their usual keys.
const parts = import.meta.glob<Tree>(['./it.ts', '../features/*/locales/it.ts', '../components/*/locales/it.ts'], {
  eager: true,
  import: 'it',
});

export default mergeCatalogues(Object.values(parts)) as Shape<Catalogue>;
