#!/usr/bin/env python3
"""Fails when a crate's modules import each other in a circle.

Dependencies point one way (ARCHITECTURE.md): a file may use what files below
it define, never what uses it. This reads every `.rs` file of the workspace's
crates and of the page, takes each path it names (`use crate::a::b`,
`crate::a::b` in code, `super::x`, a child module `x::` in a `mod.rs`, and a
crate-root re-export followed back to the module that defines the name),
and reports each strongly connected set of files with the names that tie it.
Comments and string literals are ignored.

cargo-modules has an acyclic check too, but it builds the crates through
rust-analyzer (minutes, and a nightly-sized install on a fresh machine); this
reads the text in well under a second.
"""

import os
import re
import sys

ROOTS = ["src", "crates/decoding/src", "crates/engine/src", "crates/protocol/src",
         "crates/worker/src", "crates/cli/src", "crates/parallel/src"]


def strip(text):
    """Removes comments, string and char literals (keeps line structure)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            i = n if j < 0 else j + len(end)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]):
            i += len(re.match(r"'(\\.[^']*|[^\\'])'", text[i:]).group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def without_tests(code):
    """Drops `#[cfg(test)]` items: a test may use anything."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]", code):
        if m.start() < i:
            continue
        out.append(code[i:m.start()])
        j = m.end()
        semi, brace = code.find(";", j), code.find("{", j)
        if brace < 0 or (0 <= semi < brace):
            i = semi + 1
            continue
        depth, j = 0, brace
        while j < len(code):
            depth += code[j] == "{"
            depth -= code[j] == "}"
            j += 1
            if depth == 0:
                break
        i = j
    out.append(code[i:])
    return "".join(out)


def module_files(root):
    """Module path (tuple) -> file, for one crate's source folder."""
    mods = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), root)
            parts = rel[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            if parts and parts[0] == "bin":
                continue
            mods[tuple(parts)] = os.path.join(dirpath, f)
    return mods


def use_paths(code):
    """Every `a::b::c` path a `use` item names, groups expanded."""
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        tree = re.sub(r"\s+as\s+\w+", "", m.group(1))
        paths.extend(expand(re.sub(r"\s+", "", tree)))
    return paths


def expand(tree):
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e]."""
    brace = tree.find("{")
    if brace < 0:
        return [tree]
    prefix, body = tree[:brace], tree[brace + 1:tree.rfind("}")]
    items, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    items.append(cur)
    return [p for item in items if item for p in expand(prefix + item)]


def main():
    files = {}      # file -> (crate root, module path)
    modules = {}    # (crate root, module path) -> file
    for root in ROOTS:
        for path, f in module_files(root).items():
            files[f] = (root, path)
            modules[(root, path)] = f
    codes = {f: without_tests(strip(open(f, encoding="utf-8").read())) for f in files}

    # Names a crate root re-exports, followed to the module that defines them.
    reexports = {}
    for (root, path), f in modules.items():
        if path:
            continue
        for p in use_paths(codes[f]):
            segs = [s for s in p.replace("crate::", "").split("::") if s]
            if len(segs) >= 2:
                reexports[(root, segs[-1])] = tuple(segs[:-1])

    def resolve(root, segs):
        """The longest module prefix of `segs` that is a file of this crate."""
        for k in range(len(segs), 0, -1):
            if (root, tuple(segs[:k])) in modules:
                return tuple(segs[:k]), segs[k] if k < len(segs) else segs[-1]
        if len(segs) == 1 and (root, segs[0]) in reexports:
            target = reexports[(root, segs[0])]
            if (root, target) in modules:
                return target, segs[0]
        return None, None

    edges = {}  # (from file, to file) -> names
    for f, (root, path) in files.items():
        code = codes[f]
        is_dir_module = os.path.basename(f) in ("mod.rs", "lib.rs", "main.rs")
        here = path
        children = set(re.findall(r"\bmod\s+(\w+)\s*;", code))
        found = []
        for p in use_paths(code) + re.findall(r"\b(?:crate|super|self)(?:::\w+)+", code):
            segs = p.split("::")
            if segs[0] == "crate":
                segs = segs[1:]
            elif segs[0] in ("super", "self"):
                base = list(here)
                while segs and segs[0] in ("super", "self"):
                    if segs[0] == "super":
                        base = base[:-1]
                    segs = segs[1:]
                segs = base + segs
            elif segs[0] in children:
                segs = list(here) + segs
            else:
                continue
            found.append(segs)
        for m in re.finditer(r"(?<![\w:])(\w+)::\w+", code):
            if m.group(1) in children:
                found.append(list(here) + [m.group(1)])
        for segs in found:
            target, name = resolve(root, segs)
            if target is None or (root, target) == (root, path):
                continue
            if target == () and is_dir_module is False and len(segs) == 1:
                continue
            to = modules[(root, target)]
            if to != f:
                edges.setdefault((f, to), set()).add(name)

    # Tarjan's strongly connected components.
    graph = {}
    for (a, b) in edges:
        graph.setdefault(a, set()).add(b)
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(files):
        if v not in index:
            visit(v)

    if not sccs:
        print(f"module graph: {len(files)} files, {len(edges)} imports, no circles")
        return 0
    print(f"module graph: {len(sccs)} circle(s) of files that import each other:")
    for comp in sccs:
        print("  circle: " + ", ".join(comp))
        for a in comp:
            for b in comp:
                if (a, b) in edges:
                    print(f"    {a} -> {b}: {', '.join(sorted(edges[(a, b)]))}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
