#!/usr/bin/env python3
"""Fails when the modules of a crate import each other in a loop.

For every module M of a crate, the check looks at M's own file and M's child modules as the
nodes of one graph: an edge A -> B when code in A (or below it) names something in B (or below
it) through a `crate::`, `super::`, `self::` or child-module path. A loop among those nodes is a
loop of the crate's modules: `records/snapshot.rs <-> touched.rs`, or a child that reaches back
into its parent's own items while the parent uses the child. A parent's `mod child;` and its
`pub use child::Item` (the area's facade) are not uses. Test modules (`tests`, `#[cfg(test)]`)
are left out: they may use anything.

Usage: module-loops.py [CRATE_SRC_DIR ...]   (default: every functions/*/src)
Prints each loop with one edge's witness (file:line and the path named) and exits 1 when there is one.
"""
import glob
import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments_and_strings(text):
    """Blanks comments and string/char literals, keeping line numbers."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not re.match(r"\w", text[i - 1])):
            m = re.match(r'r(#*)"', text[i:])
            close = '"' + m.group(1)
            j = text.find(close, i + len(m.group(0)))
            j = n if j < 0 else j + len(close)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]):
            m = re.match(r"'(\\.|[^\\'])'", text[i:i + 4])
            out.append(" " * len(m.group(0)))
            i += len(m.group(0))
        elif c == "'" and re.match(r"'\\u\{[0-9a-fA-F]+\}'", text[i:i + 12]):
            m = re.match(r"'\\u\{[0-9a-fA-F]+\}'", text[i:i + 12])
            out.append(" " * len(m.group(0)))
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def drop_test_modules(text):
    """Blanks `#[cfg(test)] mod x { ... }` blocks and `#[cfg(test)] mod x;` lines."""
    pattern = re.compile(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+" + IDENT + r"\s*([;{])")
    while True:
        m = pattern.search(text)
        if not m:
            return text
        start, end = m.start(), m.end()
        if m.group(3) == "{":
            depth, j = 1, end
            while j < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            end = j
        text = text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def module_files(src):
    """{module path tuple: file} for a crate's src dir (lib.rs or main.rs as the root)."""
    mods = {}
    for path in glob.glob(os.path.join(src, "**", "*.rs"), recursive=True):
        rel = os.path.relpath(path, src)
        parts = rel[:-3].split(os.sep)
        if parts[0] == "bin":
            continue
        if parts[-1] in ("lib", "main") and len(parts) == 1:
            parts = []
        elif parts[-1] == "mod":
            parts = parts[:-1]
        if "tests" in parts:
            continue
        mods[tuple(parts)] = path
    return mods


def expand_use_tree(tree):
    """`a::{b, c::{d as e}}` -> ['a::b', 'a::c::d'] (aliases dropped; globs kept as `*`)."""
    tree = re.sub(r"\s+as\s+" + IDENT, "", tree)
    tree = re.sub(r"\s+", "", tree)
    i = tree.find("{")
    if i < 0:
        return [tree]
    prefix, inner = tree[:i], tree[i + 1:tree.rfind("}")]
    parts, depth, cur = [], 0, ""
    for c in inner:
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += {"{": 1, "}": -1}.get(c, 0)
        cur += c
    parts.append(cur)
    out = []
    for p in parts:
        if p:
            out += [prefix.rstrip(":") if e == "self" else prefix + e for e in expand_use_tree(p)]
    return out


class Crate:
    def __init__(self, src):
        self.src = src
        self.files = module_files(src)
        self.texts = {}
        self.reexports = {}  # module -> {name: target module}
        self.globs = {}  # module -> [modules it re-exports whole (`pub use x::*`)]
        for mod, path in self.files.items():
            with open(path, encoding="utf-8") as f:
                text = drop_test_modules(strip_comments_and_strings(f.read()))
            self.texts[mod] = text
        for mod, text in self.texts.items():
            table = {}
            for m in re.finditer(r"\bpub(\([^)]*\))?\s+use\s+([^;]+);", text):
                for p in expand_use_tree(m.group(2)):
                    segs = p.split("::")
                    name = segs[-1]
                    target = self.resolve_module(mod, segs[:-1])
                    if target is not None and name != "*":
                        table[name] = target
                    elif target is not None:
                        self.globs.setdefault(mod, []).append(target)
            self.reexports[mod] = table
        # `#[macro_export]` puts a macro at the crate root: it belongs to the module defining it
        for mod, text in self.texts.items():
            for m in re.finditer(r"#\[macro_export\]\s*macro_rules!\s*(" + IDENT + ")", text):
                self.reexports[()].setdefault(m.group(1), mod)

    def is_module(self, path):
        return tuple(path) in self.files

    def resolve_module(self, current, segs):
        """The module a path prefix names, from `current` (None when it names no module of ours)."""
        segs = list(segs)
        if not segs:
            return tuple(current)
        head = segs[0]
        if head == "crate":
            base = []
            segs = segs[1:]
        elif head == "super":
            base = list(current)
            while segs and segs[0] == "super":
                if not base:
                    return None
                base.pop()
                segs = segs[1:]
        elif head == "self":
            base = list(current)
            segs = segs[1:]
        elif self.is_module(list(current) + [head]):
            base = list(current)
        else:
            return None
        path = base
        for s in segs:
            if self.is_module(path + [s]):
                path = path + [s]
            else:
                break
        return tuple(path)

    def target(self, current, segs):
        """The deepest module a path names (following re-exports of the item it ends at)."""
        segs = [s for s in segs if s]
        if not segs:
            return None
        head = segs[0]
        if head not in ("crate", "super", "self") and not self.is_module(list(current) + [head]):
            return None
        mod = self.resolve_module(current, segs)
        if mod is None:
            return None
        # the first segment after the module: an item, maybe re-exported from a child
        consumed = self.consumed(current, segs, mod)
        rest = segs[consumed:]
        seen = set()
        while rest and rest[0] in self.reexports.get(mod, {}) and (mod, rest[0]) not in seen:
            seen.add((mod, rest[0]))
            nxt = self.reexports[mod][rest[0]]
            if nxt == mod:
                break
            mod = nxt
        # an item a module re-exports whole from a child (`pub use model::*`) is the child's
        if rest and not self.defines(mod, rest[0]):
            for g in self.globs.get(mod, []):
                if g != mod and self.defines(g, rest[0]):
                    return g
        return mod

    def defines(self, mod, name):
        """Whether a module's own file declares `name`."""
        text = self.texts.get(tuple(mod), "")
        return re.search(
            r"\b(fn|struct|enum|const|type|static|trait|mod|macro_rules!)\s+" + re.escape(name) + r"\b",
            text,
        ) is not None

    def consumed(self, current, segs, mod):
        """How many segments of `segs` the module prefix took."""
        head = segs[0]
        if head == "crate":
            return 1 + len(mod)
        if head == "super":
            ups = 0
            while ups < len(segs) and segs[ups] == "super":
                ups += 1
            return ups + len(mod) - (len(current) - ups)
        if head == "self":
            return 1 + len(mod) - len(current)
        return len(mod) - len(current)

    def edges(self):
        """(from module, to module, file, line, path) for every path naming another module."""
        out = []
        for mod, text in self.texts.items():
            # a parent's own declarations of its children and its re-exports are no uses
            body = re.sub(r"\b(pub(\([^)]*\))?\s+)?mod\s+" + IDENT + r"\s*;", lambda m: " " * len(m.group(0)), text)
            body = re.sub(r"\bpub(\([^)]*\))?\s+use\s+[^;]+;", lambda m: re.sub(r"[^\n]", " ", m.group(0)), body)
            for m in re.finditer(r"\buse\s+([^;]+);", body):
                line = body.count("\n", 0, m.start()) + 1
                for p in expand_use_tree(m.group(1)):
                    segs = p.split("::")
                    t = self.target(mod, segs)
                    if t is not None and t != mod:
                        out.append((mod, t, self.files[mod], line, p))
            body2 = re.sub(r"\buse\s+[^;]+;", lambda m: re.sub(r"[^\n]", " ", m.group(0)), body)
            # an item the module re-exports and also uses itself, by its bare name
            for name, t in self.reexports.get(mod, {}).items():
                m = re.search(r"(?<![\w:])" + re.escape(name) + r"\b(?!\s*::)", body2)
                if m and t != mod and not (mod == () and re.match(r"[a-z_]+$", name)):
                    line = body2.count("\n", 0, m.start()) + 1
                    out.append((mod, t, self.files[mod], line, name))
            for m in re.finditer(r"(?<![\w:])((?:" + IDENT + r"::)+" + IDENT + r")", body2):
                segs = m.group(1).split("::")
                t = self.target(mod, segs)
                if t is not None and t != mod:
                    line = body2.count("\n", 0, m.start()) + 1
                    out.append((mod, t, self.files[mod], line, m.group(1)))
        return out


def loops(crate):
    """Every loop among siblings: (parent, [nodes], [witness edges])."""
    graph = {}  # parent -> {node: {node: witness}}
    for src, dst, path, line, named in crate.edges():
        common = 0
        while common < min(len(src), len(dst)) and src[common] == dst[common]:
            common += 1
        parent = src[:common]
        a = src[common] if len(src) > common else "(self)"
        b = dst[common] if len(dst) > common else "(self)"
        if a == b:
            continue
        graph.setdefault(parent, {}).setdefault(a, {}).setdefault(b, (path, line, named))
    found = []
    for parent, g in sorted(graph.items()):
        for scc in strongly_connected(g):
            if len(scc) > 1:
                witnesses = [
                    (a, b, g[a][b]) for a in sorted(scc) for b in sorted(scc) if b in g.get(a, {})
                ]
                found.append((parent, sorted(scc), witnesses))
    return found


def strongly_connected(g):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    nodes = set(g) | {b for a in g for b in g[a]}

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            out.append(scc)

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    srcs = argv or sorted(glob.glob(os.path.join(root, "functions", "*", "src")))
    total = 0
    for src in srcs:
        crate = Crate(src)
        name = os.path.basename(os.path.dirname(os.path.abspath(src)))
        for parent, nodes, witnesses in loops(crate):
            total += 1
            where = "::".join(parent) or "(crate root)"
            print(f"{name}: loop in {where}: {' <-> '.join(nodes)}")
            for a, b, (path, line, named) in witnesses:
                print(f"    {a} -> {b}: {os.path.relpath(path, root)}:{line} {named}")
    if total:
        print(f"{total} module loop(s): break each by moving the shared piece to the module both may use")
        return 1
    print(f"no module loops ({len(srcs)} crates)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
