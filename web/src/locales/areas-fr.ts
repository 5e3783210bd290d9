import { mergeCatalogues, type Tree } from './shape';

// Every area's French strings (`features/<area>/locales/`, `components/<part>/locales/`) under their
// usual keys: a chunk of its own, loaded before the first signed-in screen (i18n.ts).
const parts = import.meta.glob<Tree>(['../features/*/locales/fr.ts', '../components/*/locales/fr.ts'], { eager: true, import: 'fr' });

export default mergeCatalogues(Object.values(parts));
