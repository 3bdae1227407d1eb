"""Expected outputs of llama.cpp's samplers, from llama.cpp itself.

llama-cpp-python builds llama.cpp from source and exposes its sampler API
(`llama_sampler_init_*`, `llama_sampler_chain_*`, `llama_sampler_apply`). This
script converts the committed tiny GPT-2 checkpoint to GGUF with llama.cpp's
own converter, takes logit rows from llama.cpp's forward pass on it, and runs
llama.cpp's samplers on them — alone and in chains, default and custom
orders, over several steps (penalties, DRY and mirostat carry state; XTC and
dist draw from their seeded mt19937) — recording what survives, with what
probability, and which token the seeded draw picks. It also records llama.cpp
generating greedy and seeded text on the GGUF model, for the end-to-end check.

What it writes (committed; CI needs neither llama.cpp nor torch):
  tests/fixtures/llama/logits.f32    the logit rows (f32, little endian): f16
                                     would be smaller, but its rounding makes ties,
                                     and llama.cpp's unstable sorts order ties its own way
  tests/fixtures/llama/samplers.json the cases and what llama.cpp did
  tests/fixtures/llama/generate.json llama.cpp's own generations

Run (a venv with llama-cpp-python 0.3.36 and numpy; the converter runs in a
Python that has torch and transformers, plus the sdist's gguf-py):
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAMA_CURL=OFF -DGGML_OPENMP=OFF" pip install llama-cpp-python==0.3.36 numpy
  python tests/reference/make_llama_fixtures.py --llama-src SDIST/vendor/llama.cpp \
      --convert-python /path/to/venv-with-torch/bin/python

The chain is built as llama-server builds it (`common_sampler_init` in
common/sampling.cpp, which the Python bindings do not expose): `build_chain`
below follows it line by line; everything else is llama.cpp's own code.
"""

import argparse
import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import llama_cpp as L

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
MODEL_DIR = os.path.join(FIXTURES, "models", "tiny")
OUT = os.path.join(FIXTURES, "llama")
N_VOCAB = 50257
LIST_AT_MOST = 256  # survivors listed in full up to this many; beyond, the top 64
TOP = 64

# llama-server's defaults (common/common.h, common_params_sampling).
DEFAULTS = {
    "temperature": 0.8, "dynatemp_range": 0.0, "dynatemp_exponent": 1.0,
    "top_k": 40, "top_p": 0.95, "min_p": 0.05, "typical_p": 1.0, "top_n_sigma": -1.0,
    "xtc_probability": 0.0, "xtc_threshold": 0.1,
    "repeat_penalty": 1.0, "repeat_last_n": 64, "presence_penalty": 0.0, "frequency_penalty": 0.0,
    "dry_multiplier": 0.0, "dry_base": 1.75, "dry_allowed_length": 2, "dry_penalty_last_n": 64,
    "dry_sequence_breakers": ["\n", ":", "\"", "*"],
    "mirostat": 0, "mirostat_tau": 5.0, "mirostat_eta": 0.1,
    "adaptive_target": -1.0, "adaptive_decay": 0.9, "min_keep": 0,
    "logit_bias": [], "ignore_eos": False, "seed": 4294967295,
    "samplers": ["penalties", "dry", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p", "xtc", "temperature"],
}
EOS = 50256


def build_chain(cfg, vocab):
    """common_sampler_init (common/sampling.cpp), for the knobs a lane takes."""
    c = dict(DEFAULTS)
    c.update(cfg)
    chain = L.llama_sampler_chain_init(L.llama_sampler_chain_default_params())
    add = lambda s: L.llama_sampler_chain_add(chain, s)
    seed = c["seed"] & 0xFFFFFFFF
    biases = [(t, float(b)) for t, b in c["logit_bias"]]
    if c["ignore_eos"]:
        biases.append((EOS, float("-inf")))
    if biases:
        arr = (L.llama_logit_bias * len(biases))(*[L.llama_logit_bias(t, b) for t, b in biases])
        add(L.llama_sampler_init_logit_bias(N_VOCAB, len(biases), arr))
    if c["mirostat"] == 0:
        adaptive = False
        for name in c["samplers"]:
            if name == "dry":
                br = [s.encode() for s in c["dry_sequence_breakers"]]
                arr = (ctypes.c_char_p * len(br))(*br)
                add(L.llama_sampler_init_dry(vocab, c["dry_multiplier"], c["dry_base"],
                                             c["dry_allowed_length"], c["dry_penalty_last_n"], arr, len(br)))
            elif name == "top_k":
                add(L.llama_sampler_init_top_k(c["top_k"]))
            elif name == "top_p":
                add(L.llama_sampler_init_top_p(c["top_p"], c["min_keep"]))
            elif name == "top_n_sigma":
                add(L.llama_sampler_init_top_n_sigma(c["top_n_sigma"]))
            elif name == "min_p":
                add(L.llama_sampler_init_min_p(c["min_p"], c["min_keep"]))
            elif name == "xtc":
                add(L.llama_sampler_init_xtc(c["xtc_probability"], c["xtc_threshold"], c["min_keep"], seed))
            elif name == "typ_p":
                add(L.llama_sampler_init_typical(c["typical_p"], c["min_keep"]))
            elif name == "temperature":
                add(L.llama_sampler_init_temp_ext(c["temperature"], c["dynatemp_range"], c["dynatemp_exponent"]))
            elif name == "penalties":
                add(L.llama_sampler_init_penalties(N_VOCAB, c["repeat_last_n"], c["repeat_penalty"],
                                                   c["frequency_penalty"], c["presence_penalty"]))
            elif name == "adaptive_p":
                adaptive = True
            else:
                raise ValueError(name)
        if adaptive:
            add(L.llama_sampler_init_adaptive_p(c["adaptive_target"], c["adaptive_decay"], seed))
        else:
            add(L.llama_sampler_init_dist(seed))
    elif c["mirostat"] == 1:
        add(L.llama_sampler_init_temp(c["temperature"]))
        add(L.llama_sampler_init_mirostat(N_VOCAB, seed, c["mirostat_tau"], c["mirostat_eta"], 100))
    else:
        add(L.llama_sampler_init_temp(c["temperature"]))
        add(L.llama_sampler_init_mirostat_v2(seed, c["mirostat_tau"], c["mirostat_eta"]))
    return chain


def apply(chain, row):
    """One step: the whole vocabulary in id order, the chain applied."""
    buf = (L.llama_token_data * N_VOCAB)()
    for i in range(N_VOCAB):
        buf[i].id = i
        buf[i].logit = float(row[i])
        buf[i].p = 0.0
    arr = L.llama_token_data_array(buf, N_VOCAB, -1, False)
    L.llama_sampler_apply(chain, ctypes.byref(arr))
    data = [(arr.data[i].id, arr.data[i].logit, arr.data[i].p) for i in range(arr.size)]
    return data, arr.selected


def record(data, selected):
    finite = [(i, l, p) for i, l, p in data if l != float("-inf")]
    step = {"size": len(data), "kept": len(finite), "chosen": data[selected][0]}
    # What dist draws from: the softmax of the survivors' final logits.
    logits = np.array([l for _, l, _ in finite], dtype=np.float64)
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    by_p = sorted(zip([i for i, _, _ in finite], probs), key=lambda t: (-t[1], t[0]))
    if len(finite) <= LIST_AT_MOST:
        step["survivors"] = [[int(i), float(p)] for i, p in by_p]
    else:
        step["top"] = [[int(i), float(p)] for i, p in by_p[:TOP]]
    return step


# Cases: a llama-server config, the tokens accepted before the first step (the
# "prompt"), and the logit rows of the steps, in order. Chosen tokens are
# accepted after each step, as llama-server does.
FILLER = [464, 1266, 835, 284, 2193, 8300, 318, 13]


def cases(n_rows, fav):
    """`fav[r]`: row r's favourite tokens, best first. Histories are built
    from them so the penalties and DRY act on tokens that matter."""
    steps = list(range(n_rows))
    firsts = [f[0] for f in fav]
    # Each row's favourite, then eight fillers: a window of 8 no longer holds
    # the favourites, the default window of 64 does.
    REPEATING = firsts + FILLER
    # "a b c d a b c": DRY's next "d" would extend a repeat of three; d is
    # row 0's favourite, so the penalty moves a token that survives.
    a, b, c = FILLER[:3]
    DRY_CONTEXT = FILLER[3:] + [a, b, c, firsts[0], a, b, c]
    # " way to" is two tokens: the breaker's head " way" and its tail " to".
    # Found four back, it caps the repeat "way to The best" at two tokens.
    BROKEN = [835, 284, 464, 1266, firsts[0], 835, 284, 464, 1266]
    c = []
    for seed in [1, 42, 2026]:
        c.append(("default chain", {"seed": seed}, [], steps))
    c += [
        ("greedy: temperature 0", {"temperature": 0.0, "seed": 3}, [], steps),
        ("top_k alone", {"samplers": ["top_k"], "top_k": 5, "temperature": 1.0, "seed": 7}, [], steps),
        ("top_p alone (unsorted, adaptive sort)", {"samplers": ["top_p"], "top_p": 0.9, "seed": 7}, [], steps),
        ("top_p with min_keep", {"samplers": ["top_k", "top_p"], "top_k": 60, "top_p": 0.2, "min_keep": 5, "seed": 8}, [], steps),
        ("min_p alone (unsorted)", {"samplers": ["min_p"], "min_p": 0.1, "seed": 9}, [], steps),
        ("min_p falls back to sorted for min_keep", {"samplers": ["min_p"], "min_p": 0.9, "min_keep": 4, "seed": 9}, [], steps),
        ("min_p after top_k (sorted)", {"samplers": ["top_k", "min_p"], "top_k": 50, "min_p": 0.2, "seed": 10}, [], steps),
        ("typical alone", {"samplers": ["top_k", "typ_p"], "top_k": 100, "typical_p": 0.7, "seed": 11}, [], steps),
        ("typical with min_keep", {"samplers": ["typ_p"], "typical_p": 0.002, "min_keep": 25, "seed": 12}, [], steps),
        ("top_n_sigma", {"samplers": ["top_n_sigma"], "top_n_sigma": 1.5, "seed": 13}, [], steps),
        ("top_n_sigma then temperature", {"samplers": ["top_n_sigma", "temperature"], "top_n_sigma": 2.0, "temperature": 0.6, "seed": 14}, [], steps),
        ("temperature first (HF's order)", {"samplers": ["temperature", "top_k", "top_p", "min_p"], "temperature": 1.5, "seed": 15}, [], steps),
        ("temperature last (llama.cpp's order)", {"samplers": ["top_k", "top_p", "min_p", "temperature"], "temperature": 1.5, "seed": 15}, [], steps),
        ("dynamic temperature", {"samplers": ["top_k", "temperature"], "top_k": 120, "temperature": 0.9, "dynatemp_range": 0.6, "dynatemp_exponent": 1.5, "seed": 16}, [], steps),
        ("xtc", {"samplers": ["top_k", "xtc", "temperature"], "top_k": 30, "xtc_probability": 0.5, "xtc_threshold": 0.05, "seed": 17}, [], steps),
        ("xtc with min_keep", {"samplers": ["top_k", "xtc"], "top_k": 10, "xtc_probability": 1.0, "xtc_threshold": 0.01, "min_keep": 4, "seed": 18}, [], steps),
        ("penalties over a short window", {"samplers": ["penalties", "top_k"], "top_k": 20, "repeat_penalty": 1.3, "repeat_last_n": 8, "frequency_penalty": 0.2, "presence_penalty": 0.3, "seed": 19}, REPEATING, steps),
        ("repeat_penalty with the default window", {"repeat_penalty": 1.1, "seed": 20}, REPEATING, steps),
        ("dry over a repeating context", {"samplers": ["dry", "top_k"], "top_k": 50, "dry_multiplier": 0.8, "dry_base": 1.75, "dry_allowed_length": 2, "seed": 21}, DRY_CONTEXT, steps),
        ("dry with a breaker in the repeat", {"samplers": ["dry", "top_k"], "top_k": 50, "dry_multiplier": 2.0, "dry_allowed_length": 1, "dry_sequence_breakers": [" best"], "seed": 22}, DRY_CONTEXT, steps),
        ("dry with a two-token breaker", {"samplers": ["dry", "top_k"], "top_k": 50, "dry_multiplier": 1.0, "dry_base": 2.0, "dry_allowed_length": 1, "dry_sequence_breakers": [" way to"], "seed": 30}, BROKEN, steps),
        ("dry with a longer allowed length", {"samplers": ["dry", "top_k"], "top_k": 50, "dry_multiplier": 1.5, "dry_base": 2.5, "dry_allowed_length": 1, "seed": 29}, DRY_CONTEXT, steps),
        ("logit_bias and ignore_eos", {"logit_bias": [[13, 5.0], [11, -100.0], [198, float("-inf")], [50256, 30.0]], "ignore_eos": True, "seed": 23}, [], steps),
        ("mirostat 1", {"mirostat": 1, "mirostat_tau": 4.0, "mirostat_eta": 0.2, "seed": 24}, [], steps),
        ("mirostat 2", {"mirostat": 2, "mirostat_tau": 3.0, "mirostat_eta": 0.3, "temperature": 0.9, "seed": 25}, [], steps),
        ("adaptive_p", {"samplers": ["top_k", "adaptive_p"], "top_k": 40, "adaptive_target": 0.3, "adaptive_decay": 0.8, "seed": 26}, [], steps),
        ("adaptive_p with a negative target just draws", {"samplers": ["top_k", "adaptive_p"], "top_k": 40, "seed": 27}, [], steps),
        ("everything at once", {"samplers": ["penalties", "dry", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p", "xtc", "temperature"],
                                "repeat_penalty": 1.2, "frequency_penalty": 0.1, "presence_penalty": 0.1, "dry_multiplier": 0.5,
                                "top_n_sigma": 3.0, "top_k": 80, "typical_p": 0.95, "top_p": 0.9, "min_p": 0.02,
                                "xtc_probability": 0.3, "xtc_threshold": 0.1, "temperature": 0.7, "seed": 28}, REPEATING, steps),
    ]
    return c


def to_json_config(cfg):
    """The config as a lane gives it: `semantics` plus llama-server fields."""
    out = {"semantics": "llama.cpp"}
    for k, v in cfg.items():
        if k == "logit_bias":
            v = [[t, (False if b == float("-inf") else b)] for t, b in v]
        out[k] = v
    return out


def convert(llama_src, python, workdir):
    model = os.path.join(workdir, "tiny")
    os.makedirs(model)
    shutil.copy(os.path.join(MODEL_DIR, "model.safetensors"), model)
    shutil.copy(os.path.join(FIXTURES, "models", "tokenizer.json"), model)
    with open(os.path.join(MODEL_DIR, "config.json")) as f:
        cfg = json.load(f)
    # The converter detects the architecture by name and reads GPT-2's n_ctx.
    cfg["architectures"] = ["GPT2LMHeadModel"]
    cfg["n_ctx"] = cfg["n_positions"]
    with open(os.path.join(model, "config.json"), "w") as f:
        json.dump(cfg, f)
    out = os.path.join(workdir, "tiny-f32.gguf")
    env = dict(os.environ, PYTHONPATH=os.path.join(llama_src, "gguf-py"))
    subprocess.run([python, os.path.join(llama_src, "convert_hf_to_gguf.py"), model,
                    "--outtype", "f32", "--outfile", out], check=True, env=env)
    return out


def last_logits(llm):
    ptr = L.llama_get_logits_ith(llm.ctx, -1)
    return np.ctypeslib.as_array(ptr, shape=(N_VOCAB,)).copy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llama-src", required=True, help="the sdist's vendor/llama.cpp")
    ap.add_argument("--convert-python", required=True, help="a Python with torch and transformers")
    args = ap.parse_args()
    from llama_cpp import Llama

    os.makedirs(OUT, exist_ok=True)
    work = tempfile.mkdtemp()
    gguf = convert(args.llama_src, args.convert_python, work)
    llm = Llama(model_path=gguf, n_ctx=64, n_batch=64, verbose=False, n_threads=1)
    vocab = L.llama_model_get_vocab(llm.model)

    # Logit rows: llama.cpp's forward at the end of several contexts.
    contexts = [
        b"The best way to learn programming is",
        b"The history of computers is",
        b"Once upon a time",
        b"Hello, world!\n",
        b"The best way to learn programming is to",
        b"1, 2, 3, 4,",
        b"She said: \"",
        b"In 1990 the",
        b"The weather today is",
        b"My favourite food is",
    ]
    rows = []
    for text in contexts:
        llm.reset()
        llm.eval(llm.tokenize(text, add_bos=False))
        row = last_logits(llm)
        # Ties among the likely tokens would leave their order to libstdc++'s
        # unstable sorts; rows with one are skipped.
        top = np.sort(row)[-1000:]
        if len(np.unique(top)) < len(top):
            print(f"skipped {text!r}: tied logits among its top 1000", file=sys.stderr)
            continue
        rows.append(row)
    rows = rows[:8]
    assert len(rows) == 8
    exact = np.stack(rows).astype(np.float32)
    exact.astype("<f4").tofile(os.path.join(OUT, "logits.f32"))

    fav = [[int(i) for i in np.argsort(-r, kind="stable")[:3]] for r in exact]
    out = []
    for name, cfg, prompt, steps in cases(len(rows), fav):
        chain = build_chain(cfg, vocab)
        for t in prompt:
            L.llama_sampler_accept(chain, t)
        rec = []
        for r in steps:
            data, sel = apply(chain, exact[r])
            step = record(data, sel)
            step["row"] = r
            rec.append(step)
            L.llama_sampler_accept(chain, step["chosen"])
        L.llama_sampler_free(chain)
        out.append({"name": name, "config": to_json_config(cfg), "prompt": prompt, "steps": rec})
        print(f"{name}: {[s['chosen'] for s in rec]}", file=sys.stderr)
    with open(os.path.join(OUT, "samplers.json"), "w") as f:
        json.dump({"llama_cpp_python": L.__version__, "n_vocab": N_VOCAB, "rows": len(rows),
                   "cases": out}, f, indent=None, separators=(",", ":"))

    # End to end: llama.cpp generating on the GGUF model with its own forward.
    gens = []
    for name, cfg, prompt_text in [
        ("greedy", {"temperature": 0.0, "seed": 1}, "The best way to learn programming is"),
        ("default chain, seed 42", {"seed": 42}, "The best way to learn programming is"),
        ("penalties and dry, seed 7", {"repeat_penalty": 1.3, "dry_multiplier": 0.8, "seed": 7}, "The history of computers is"),
        ("mirostat 2, seed 5", {"mirostat": 2, "seed": 5}, "Once upon a time"),
    ]:
        llm.reset()
        toks = llm.tokenize(prompt_text.encode(), add_bos=False)
        chain = build_chain(cfg, vocab)
        for t in toks:
            L.llama_sampler_accept(chain, t)
        llm.eval(toks)
        gen, tops = [], []
        for _ in range(20):
            row = last_logits(llm)
            order = np.argsort(-row, kind="stable")[:20]
            tops.append([[int(i), float(row[i])] for i in order])
            tok = L.llama_sampler_sample(chain, llm.ctx, -1)  # apply + accept
            gen.append(int(tok))
            if tok == EOS:
                break
            llm.eval([tok])
        L.llama_sampler_free(chain)
        gens.append({"name": name, "config": to_json_config(cfg), "prompt": prompt_text,
                     "prompt_ids": toks, "tokens": gen, "top_logits": tops})
        print(f"{name}: {gen}", file=sys.stderr)
    with open(os.path.join(OUT, "generate.json"), "w") as f:
        json.dump({"llama_cpp_python": L.__version__, "runs": gens}, f, indent=None, separators=(",", ":"))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
