#!/usr/bin/env python3
"""Sample trees grown natively by `decode --samples`, kept compact
(tests/fixtures/native-trees.json): each node as [parent or -1, token id,
count]. The engine's test checks the tiny model's tree on every target
(native and wasm), the CLI's test that decode still grows both, and the
page's test that the bundled model's tree grown in the browser is this one.

    cargo build --release -p ntl-cli && python3 tests/reference/make_native_trees.py
"""
import json
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
DECODE = ROOT / "target" / "release" / "decode"

TREES = [
    {"model": "tests/fixtures/models/tiny", "prompt": "Once upon a time",
     "config": {"do_sample": True, "temperature": 1.2, "seed": 21}, "samples": 200, "tokens": 4},
    {"model": "www/models/kjv-gpt2", "prompt": "The LORD is my",
     "config": {"do_sample": True, "temperature": 0.7, "top_k": 0, "seed": 3}, "samples": 200, "tokens": 6},
]


def grow(case):
    out = subprocess.run(
        [str(DECODE), "--model", str(ROOT / case["model"]), "--prompt", case["prompt"],
         "--config", json.dumps(case["config"]), "--samples", str(case["samples"]),
         "--tokens", str(case["tokens"]), "--json"],
        check=True, capture_output=True, text=True).stdout
    tree = json.loads(out)["tree"]
    nodes = [[-1 if n["parent"] is None else n["parent"], n["token_id"], n["count"]] for n in tree["nodes"]]
    return {**case, "nodes": nodes, "rows": tree["rows"]}


def main():
    trees = [grow(c) for c in TREES]
    (ROOT / "tests" / "fixtures" / "native-trees.json").write_text(
        json.dumps({"trees": trees}, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
