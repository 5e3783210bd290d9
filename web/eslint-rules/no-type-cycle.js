// `vendfleet/no-type-cycle`: the import cycles `import-x/no-cycle` cannot see. That rule (4.x) passes
// over every type-only import (`import type`, `import { type A }`, `export type … from`) with no
// option to count them, because TypeScript erases them. A cycle through one still ties two modules
// together (neither can move or be understood without the other) and breaks the layering of
// docs/web.md, so this rule counts them: a type-only import (or `import('…').T` type) of the linted
// file is reported when the module it names leads back to the file through any imports, value,
// type or dynamic. Together with `import-x/no-cycle` (cycles of value imports only) every cycle
// gets at least one report. It resolves with the same `import-x/resolver-next` resolvers and
// follows only the files of `import-x/extensions`, as `import-x/no-cycle` does.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** file → its modification time and the project files it imports (resolved). */
const importsCache = new Map();

function resolve(specifier, from, settings) {
  for (const resolver of settings['import-x/resolver-next'] ?? []) {
    const result = resolver.resolve(specifier, from);
    if (result.found && result.path) return result.path;
  }
  return null;
}

/** The project file `specifier` names from `from`, or null (a package, JSON, an unresolved name). */
function projectFile(specifier, from, settings) {
  const target = resolve(specifier, from, settings);
  if (!target || target.split(path.sep).includes('node_modules')) return null;
  const extensions = settings['import-x/extensions'] ?? ['.js', '.mjs', '.cjs'];
  return extensions.includes(path.extname(target)) ? target : null;
}

/** Every project file `file` imports, type-only and dynamic imports included, as on disk. */
function importsOf(file, settings) {
  let mtimeMs;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = importsCache.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.imports;
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const imports = [...new Set(importedFiles.map(({ fileName }) => projectFile(fileName, file, settings)).filter(Boolean))];
  importsCache.set(file, { mtimeMs, imports });
  return imports;
}

/** The shortest import path from `start` back to `file` (`start` first), or null. */
function pathBack(start, file, settings) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const next of importsOf(current, settings)) {
      if (next === file) {
        const route = [];
        for (let step = current; step !== null; step = cameFrom.get(step)) route.unshift(step);
        return route;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, current);
        queue.push(next);
      }
    }
  }
  return null;
}

const everySpecifierIsType = (specifiers, kind) => specifiers.length > 0 && specifiers.every((specifier) => specifier[kind] === 'type');

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid an import cycle that goes through a type-only import.' },
    schema: [],
    messages: { cycle: 'Dependency cycle through a type-only import: {{route}}' },
  },
  create(context) {
    const file = context.physicalFilename;
    const { settings } = context;

    function check(node, specifier) {
      const target = projectFile(specifier, file, settings);
      if (!target) return;
      const route = target === file ? [] : pathBack(target, file, settings);
      if (!route) return;
      const names = [...route, file].map((step) => path.relative(context.cwd, step));
      context.report({ node, messageId: 'cycle', data: { route: names.join(' → ') } });
    }

    return {
      ImportDeclaration(node) {
        if (node.importKind === 'type' || everySpecifierIsType(node.specifiers, 'importKind')) check(node, node.source.value);
      },
      ExportNamedDeclaration(node) {
        if (node.source && (node.exportKind === 'type' || everySpecifierIsType(node.specifiers, 'exportKind'))) check(node, node.source.value);
      },
      ExportAllDeclaration(node) {
        if (node.exportKind === 'type') check(node, node.source.value);
      },
      TSImportType(node) {
        const literal = node.argument?.literal;
        if (typeof literal?.value === 'string') check(node, literal.value);
      },
    };
  },
};
