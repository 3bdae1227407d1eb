#!/usr/bin/env python3
"""The README's Contracts section lists every data-testid hook the page has.

Hooks are contracts with checks outside the repo: a new one must be
documented, and one the README lists must still exist in the page's code.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
code = "".join(p.read_text() for p in (root / "src").rglob("*.rs"))
# `data-testid="x"`, a `testid="x"` prop, `format!("lane-{}", p.index)` as
# `lane-N` and `format!("sandbox-{}", knob.name()..)` as `sandbox-KNOB`.
hooks = set()
for name, placeholder, args in re.findall(
    r'testid\s*[=:]\s*\{?\s*(?:format!\(\s*)?"([a-z0-9]+(?:-[a-z0-9]+)*?)(-\{[^"]*\})?"([^}\n]*)', code
):
    hooks.add(name + ("" if not placeholder else "-KNOB" if "knob" in args else "-N"))
# The lesson panel's read-only boxes take their hook as `code_box`'s second argument.
hooks.update(re.findall(r'code_box\(\s*[^,]+,\s*"([a-z0-9]+(?:-[a-z0-9]+)*)"', code))
readme = (root / "README.md").read_text()
section = readme.split("## Contracts", 1)
if len(section) < 2:
    sys.exit("README.md: no '## Contracts' section")
listed_line = next((l for l in section[1].splitlines() if l.startswith("**`data-testid` hooks**")), None)
if listed_line is None:
    sys.exit("README.md: the Contracts section has no '**`data-testid` hooks**' line")
listed = set(re.findall(r"`([a-zA-Z0-9-]+)`", listed_line.split(":", 1)[1]))
missing = sorted(hooks - listed)
gone = sorted(listed - hooks)
if missing or gone:
    if missing:
        print("hooks in src/ the README's Contracts section lacks:", ", ".join(missing))
    if gone:
        print("hooks the README lists that src/ no longer has:", ", ".join(gone))
    sys.exit(1)
print(f"README.md: all {len(hooks)} data-testid hooks are listed")
