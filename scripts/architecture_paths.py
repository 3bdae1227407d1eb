#!/usr/bin/env python3
"""Fails when ARCHITECTURE.md names a file or folder the tree does not have.

Every `path` in backticks that ends in `.rs`, `.mjs`, `.py`, `.sh` or `/` is
checked: one with a slash must exist from the repository's root (or, for a
crate's files, under `crates/*/src/` or `src/` when written from there); a
bare file name must be some file's name in the tree. So the document moves
with the code: a module renamed or removed shows up here.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = (".rs", ".mjs", ".py", ".sh", "/")
SKIP = {"target", "node_modules", "dist", ".git"}


def tree():
    files, dirs = set(), set()
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in SKIP]
        rel = os.path.relpath(dirpath, ROOT)
        if rel != ".":
            dirs.add(rel + "/")
        for f in filenames:
            files.add(os.path.normpath(os.path.join(rel, f)))
    return files, dirs


def main():
    files, dirs = tree()
    names = {os.path.basename(f) for f in files}
    bases = [""] + sorted({d for d in dirs if re.fullmatch(r"(crates/[^/]+/)?src/", d)})
    text = open(os.path.join(ROOT, "ARCHITECTURE.md"), encoding="utf-8").read()
    missing = []
    for path in sorted(set(re.findall(r"`([\w./-]+)`", text))):
        if not path.endswith(KINDS) or "://" in path:
            continue
        if "/" not in path.rstrip("/"):
            ok = path.rstrip("/") in names or any(d.rstrip("/").endswith("/" + path.rstrip("/")) for d in dirs)
        else:
            ok = any(os.path.normpath(b + path) in files or (b + path) in dirs for b in bases)
        if not ok:
            missing.append(path)
    if missing:
        print("ARCHITECTURE.md names what the tree does not have:")
        for m in missing:
            print("  " + m)
        return 1
    print(f"ARCHITECTURE.md: every path it names exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
