import { mergeCatalogues, type Tree } from './shape';

// Every area's Italian strings (`features/<area>/locales/`, `components/<part>/locales/`) under their
// usual keys: a chunk of its own, loaded before the first signed-in screen (i18n.ts).
const parts = import.meta.glob<Tree>(['../features/*/locales/it.ts', '../components/*/locales/it.ts'], { eager: true, import: 'it' });

export default mergeCatalogues(Object.values(parts));
