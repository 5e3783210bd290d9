import type { PermissionNode } from '../../../api/types';

/** The permission keys a node stands for: itself when it is a leaf, else its leaves. */
export function leafKeys(node: PermissionNode): string[] {
  if (!node.children || node.children.length === 0) return [node.key];
  return node.children.flatMap(leafKeys);
}

export function allLeafKeys(nodes: PermissionNode[]): string[] {
  return nodes.flatMap(leafKeys);
}

export type CheckState = 'checked' | 'unchecked' | 'indeterminate';

export function nodeState(node: PermissionNode, selected: ReadonlySet<string>): CheckState {
  const leaves = leafKeys(node);
  const count = leaves.filter((key) => selected.has(key)).length;
  if (count === 0) return 'unchecked';
  return count === leaves.length ? 'checked' : 'indeterminate';
}

/** Checks or clears a node and everything under it. */
export function setNode(node: PermissionNode, selected: ReadonlySet<string>, on: boolean): Set<string> {
  const next = new Set(selected);
  for (const key of leafKeys(node)) {
    if (on) next.add(key);
    else next.delete(key);
  }
  return next;
}

function findNode(nodes: PermissionNode[], key: string): PermissionNode | undefined {
  for (const node of nodes) {
    if (node.key === key) return node;
    const found = node.children ? findNode(node.children, key) : undefined;
    if (found) return found;
  }
  return undefined;
}

/**
 * A role's stored modules as a set of leaf keys: a stored group key selects its leaves; keys the
 * catalogue does not know are kept so saving never drops them.
 */
export function selectionFromModules(modules: string[], catalogue: PermissionNode[]): Set<string> {
  const out = new Set<string>();
  for (const key of modules) {
    const node = findNode(catalogue, key);
    if (node) leafKeys(node).forEach((leaf) => out.add(leaf));
    else out.add(key);
  }
  return out;
}
