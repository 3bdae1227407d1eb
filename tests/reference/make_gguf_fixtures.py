"""GGUF files as llama.cpp writes them, and what llama.cpp computes on them.

For each of the three tiny test checkpoints (GPT-2, Llama, Qwen2; width 32,
the real architectures and GPT-2's real tokenizer) this script converts the
checkpoint with llama.cpp's own `convert_hf_to_gguf.py` to F32, quantizes it
with llama.cpp's `llama_model_quantize` to the types people download (Q8_0,
Q4_0, Q4_K_M, Q5_K_M), and records on each file:
  - the logits of llama.cpp's forward pass at every position of a fixed
    token sequence (teacher-forced), as f32;
  - llama.cpp's greedy continuation of a prompt (20 tokens);
  - llama.cpp's tokenization of a few texts with the file's own vocabulary.

Width 32 is not a multiple of the K-quants' 256-value blocks, so llama.cpp
writes a "Q4_K_M" file of Q5_0 and Q8_0 tensors (and "Q5_K_M" of Q5_1 and
Q8_0), as it does for the hub's SmolLM2-135M (width 576) and
Qwen2.5-0.5B (896): the fallback types are what such files really hold.

What it writes (committed; CI needs neither llama.cpp nor torch):
  tests/fixtures/gguf/<model>-<type>.gguf   the files the tests load
                                            (only the ones listed in KEEP)
  tests/fixtures/gguf/<model>-<type>.logits llama.cpp's logits, f32 little endian,
                                            [len(POSITIONS), vocab] (the sequence's
                                            positions POSITIONS)
  tests/fixtures/gguf/expected.json         sequences, greedy runs, tokenizations
  tests/fixtures/gguf/pre_tokenizers.json   llama.cpp's ids for texts under each
                                            pre-tokenizer name the engine knows
                                            (the committed GPT-2 file with its
                                            `tokenizer.ggml.pre` changed by gguf-py's
                                            gguf_new_metadata.py; --tokenizers-only
                                            writes just this, without torch)

Run (a venv with llama-cpp-python 0.3.36 and numpy; the converter runs in a
Python with torch and transformers, plus the sdist's gguf-py):
  python tests/reference/make_gguf_fixtures.py --llama-src SDIST/vendor/llama.cpp \
      --convert-python /path/to/venv-with-torch/bin/python
"""

import argparse
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
OUT = os.path.join(FIXTURES, "gguf")
MODELS = {"gpt2": "tiny", "llama": "tiny-llama", "qwen2": "tiny-qwen2"}
# llama.cpp's LLAMA_FTYPE_* numbers.
TYPES = {"q8_0": 7, "q4_0": 2, "q4_k_m": 15, "q5_k_m": 17}
# Committed files: one per architecture, each a different type, small; and a
# Q5_K_M (Q5_1 at width 32), for the engine's own Q5_1 kernel in wasm.
KEEP = {("gpt2", "q8_0"), ("llama", "q4_0"), ("qwen2", "q4_k_m"), ("llama", "q5_k_m")}
# Teacher-forced ids (GPT-2 vocabulary): "The quick brown fox jumps over the lazy dog. 1234"
SEQUENCE_TEXT = "The quick brown fox jumps over the lazy dog. 1234"
PROMPT_TEXT = "In the beginning"
GREEDY_TOKENS = 20
# Positions of the sequence whose logits are kept (a row is 200 KB).
POSITIONS = [0, 5, -1]
TOKENIZE = [
    "Hello world",
    " leading space and  two spaces",
    "digits 1234567 and 3.14",
    "naïve café — “quotes”",
    "中文字符和 emoji 🙂",
    "line one\nline two\n\n",
    "<|endoftext|> is plain text here",
]

# Pre-tokenizer names (one per llama.cpp group the engine maps) and texts
# that part them: digit runs, contractions in capitals, newlines and runs of
# spaces, punctuation runs, numerals beyond ASCII, a control token typed.
PRE_TOKENIZERS = ["gpt-2", "default", "smollm", "qwen2", "llama-bpe"]
TOKENIZE_PRE = TOKENIZE + [
    "I'M HERE, YOU'LL SEE; we've 12345678 tokens",
    "x = a+b<=c^d~e|f $100 ... !!! ???",
    "tabs\tand\r\nCRLF  \n\n   indented",
    "Ⅻ ² ٣ 〇 三 numbers: 1,000.5 2024-12-05",
    "a<|endoftext|>b <|endoftext|>",
    "   ",
    "",
]


def pre_tokenizers(llama_src):
    """llama.cpp's ids, with special tokens parsed as the page parses them."""
    src = os.path.join(OUT, "gpt2-q8_0.gguf")
    script = os.path.join(llama_src, "gguf-py", "gguf", "scripts", "gguf_new_metadata.py")
    env = dict(os.environ, PYTHONPATH=os.path.join(llama_src, "gguf-py"))
    out = {"llama_cpp_python": L.__version__, "file": "gpt2-q8_0.gguf", "texts": TOKENIZE_PRE,
           "ids": {}}
    with tempfile.TemporaryDirectory() as work:
        for pre in PRE_TOKENIZERS:
            path = os.path.join(work, f"{pre}.gguf")
            subprocess.run([sys.executable, script, src, path, "--pre-tokenizer", pre, "--force"],
                           check=True, env=env, stdout=subprocess.DEVNULL)
            llm = L.Llama(model_path=path, vocab_only=True, verbose=False)
            out["ids"][pre] = [llm.tokenize(t.encode(), add_bos=False, special=True)
                               for t in TOKENIZE_PRE]
    with open(os.path.join(OUT, "pre_tokenizers.json"), "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)


def convert(llama_src, python, name, workdir):
    src = os.path.join(FIXTURES, "models", MODELS[name])
    model = os.path.join(workdir, name)
    os.makedirs(model)
    shutil.copy(os.path.join(src, "model.safetensors"), model)
    shutil.copy(os.path.join(FIXTURES, "models", "tokenizer.json"), model)
    with open(os.path.join(src, "config.json")) as f:
        cfg = json.load(f)
    if name == "gpt2":
        # The converter detects the architecture by name and reads GPT-2's n_ctx.
        cfg["architectures"] = ["GPT2LMHeadModel"]
        cfg["n_ctx"] = cfg["n_positions"]
    with open(os.path.join(model, "config.json"), "w") as f:
        json.dump(cfg, f)
    # The converter names the pre-tokenizer by hashing what AutoTokenizer
    # makes of a test text; for model_type qwen2, transformers 5 builds
    # Qwen2's own pre-tokenizer around GPT-2's vocabulary (whatever
    # tokenizer_class says), which llama.cpp does not know. The checkpoints'
    # tokenizer is GPT-2's: the converter's tokenizer is loaded as GPT-2's
    # (it takes the architecture from `architectures`, not `model_type`).
    if name == "qwen2":
        with open(os.path.join(model, "config.json"), "w") as f:
            json.dump(dict(cfg, model_type="gpt2"), f)
    # transformers 4.x loads a Llama folder's tokenizer.json as Llama's
    # tokenizer class (with <s>, </s> past the vocabulary) and the converter
    # stops; naming GPT-2's class gives the same file as transformers 5 did
    # (llama-q4_0.gguf came out byte for byte the same with 4.57).
    if name == "llama":
        with open(os.path.join(model, "tokenizer_config.json"), "w") as f:
            json.dump({"tokenizer_class": "GPT2Tokenizer"}, f)
    out = os.path.join(workdir, f"{name}-f32.gguf")
    env = dict(os.environ, PYTHONPATH=os.path.join(llama_src, "gguf-py"))
    subprocess.run([python, os.path.join(llama_src, "convert_hf_to_gguf.py"), model,
                    "--outtype", "f32", "--outfile", out], check=True, env=env)
    return out


def quantize(src, dst, ftype):
    params = L.llama_model_quantize_default_params()
    params.ftype = ftype
    rc = L.llama_model_quantize(src.encode(), dst.encode(), params)
    assert rc == 0, f"quantize {dst}: {rc}"


def record(path):
    # An f32 key/value cache, as the engine keeps: llama.cpp's default f16
    # cache alone moves these models' logits by up to 0.44.
    llm = L.Llama(model_path=path, n_ctx=64, logits_all=True, verbose=False, n_threads=1,
                  type_k=0, type_v=0)
    seq = llm.tokenize(SEQUENCE_TEXT.encode(), add_bos=False, special=False)
    llm.reset()
    llm.eval(seq)
    logits = np.array([llm.scores[p % len(seq)] for p in POSITIONS], dtype=np.float32)
    prompt = llm.tokenize(PROMPT_TEXT.encode(), add_bos=False, special=False)
    llm.reset()
    llm.eval(prompt)
    greedy = []
    for _ in range(GREEDY_TOKENS):
        tok = int(np.argmax(llm.scores[llm.n_tokens - 1]))
        greedy.append(tok)
        llm.eval([tok])
    tokens = {t: llm.tokenize(t.encode(), add_bos=False, special=False) for t in TOKENIZE}
    return seq, logits, prompt, greedy, tokens


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llama-src", required=True)
    ap.add_argument("--convert-python")
    ap.add_argument("--tokenizers-only", action="store_true")
    args = ap.parse_args()
    if args.tokenizers_only:
        pre_tokenizers(args.llama_src)
        return
    if not args.convert_python:
        ap.error("--convert-python is needed to convert the checkpoints")
    os.makedirs(OUT, exist_ok=True)
    expected = {"llama_cpp_python": L.__version__, "sequence_text": SEQUENCE_TEXT,
                "prompt_text": PROMPT_TEXT, "files": {}}
    with tempfile.TemporaryDirectory() as work:
        for name in MODELS:
            f32 = convert(args.llama_src, args.convert_python, name, work)
            for qname, ftype in TYPES.items():
                path = os.path.join(work, f"{name}-{qname}.gguf")
                quantize(f32, path, ftype)
                seq, logits, prompt, greedy, tokens = record(path)
                stem = f"{name}-{qname}"
                kept = (name, qname) in KEEP
                if kept:
                    shutil.copy(path, os.path.join(OUT, f"{stem}.gguf"))
                    logits.tofile(os.path.join(OUT, f"{stem}.logits"))
                expected["files"][stem] = {
                    "committed": kept, "bytes": os.path.getsize(path),
                    "sequence": seq, "positions": [p % len(seq) for p in POSITIONS],
                    "prompt": prompt, "greedy": greedy,
                    "tokenize": tokens if kept else None,
                }
                print(stem, os.path.getsize(path), "bytes", "kept" if kept else "")
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, ensure_ascii=False)
    pre_tokenizers(args.llama_src)


if __name__ == "__main__":
    main()
