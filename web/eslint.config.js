import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import noTypeCycle from './eslint-rules/no-type-cycle.js';

/** The feature areas: every folder of `src/features/`. */
const FEATURES = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * What a feature may import besides its own folder (docs/web.md, "Import boundaries"): the shared
 * folders of `src/`. Everything else of `src/` (the router, the layouts, the settings, another
 * feature) is out of bounds; what two features share moves into one of these.
 */
const SHARED = ['./api', './components', './auth', './locales', './test', './app/config.ts', './routes/paths.ts'];

const featureBoundaries = [
  {
    target: './src/features',
    from: './src',
    except: ['./features', ...SHARED],
    message: 'A feature imports only src/api, src/components, src/auth, src/locales, src/test, src/app/config and src/routes/paths (docs/web.md).',
  },
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature never imports another feature: move what they share into src/components or src/api (docs/web.md).',
  })),
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/api/schema.d.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // No import cycles anywhere in src/ (docs/web.md, "Import boundaries"): what two modules share
    // moves into a third that both import. `import-x/no-cycle` sees the cycles of value (and
    // dynamic) imports; it skips type-only imports and cannot be told to count them, so
    // `vendfleet/no-type-cycle` (eslint-rules/) reports the cycles that go through one: erased at
    // build time, they still tie the two modules to each other.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, vendfleet: { rules: { 'no-type-cycle': noTypeCycle } } },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
      // The files import-x reads to follow a chain of imports (its default is JavaScript only,
      // which would leave no-cycle blind to every .ts and .tsx module).
      'import-x/extensions': ['.ts', '.tsx'],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'vendfleet/no-type-cycle': 'error',
    },
  },
  {
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: featureBoundaries }],
    },
  },
  {
    files: ['e2e/**/*.mjs', '*.js', 'eslint-rules/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.node },
  },
  {
    // Functions passed to page.evaluate run in the browser.
    files: ['e2e/**/*.test.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
