import { mergeCatalogues, type Tree } from './shape';

// Every area's English strings (`features/<area>/locales/`, `components/<part>/locales/`) under their
// usual keys: a chunk of its own, loaded before the first signed-in screen (i18n.ts).
const parts = import.meta.glob<Tree>(['../features/*/locales/en.ts', '../components/*/locales/en.ts'], { eager: true, import: 'en' });

export default mergeCatalogues(Object.values(parts));
