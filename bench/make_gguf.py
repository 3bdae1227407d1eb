"""The quantized bench files: the SmolLM2-shaped and distilgpt2-shaped random
checkpoints (`ntl-bench make-checkpoint [--smollm2]`, bench/out/*-random)
converted by llama.cpp's own `convert_hf_to_gguf.py` to F16 and quantized by
its `llama_model_quantize` — SmolLM2 to Q8_0 and Q4_K_M, distilgpt2 to Q8_0
and Q4_0 (the types the issue compares with transformers.js on the same
checkpoint), Qwen2.5-0.5B-shaped (`--qwen2.5`) to Q4_K_M (the issue's memory
goal) — as bench/out/<model>-<type>.gguf. Not committed (50 MB to
1 GB each); scripts/bench.sh runs its quantized stage when they exist.

The checkpoints come first (scripts/bench.sh makes the first two):
  ntl-bench make-checkpoint bench/out/qwen25-random tests/fixtures/models/tokenizer.json --qwen2.5
Run in a venv with llama-cpp-python (0.3.36) whose sdist gives the converter
(its `vendor/llama.cpp`), and a Python with torch and transformers 4.x for it
(transformers 5 reads GPT-2's tokens in a Qwen2 folder with its Qwen2
tokenizer class, and the converter then does not recognise the pre-tokenizer):
  python bench/make_gguf.py --llama-src SDIST/vendor/llama.cpp \
      --convert-python /path/to/venv-with-torch/bin/python
"""

import argparse
import json
import os
import subprocess
import tempfile

import llama_cpp as L

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "out")
# Each checkpoint and the types made of it (llama.cpp's LLAMA_FTYPE_* numbers).
MODELS = {
    "smollm2": ("smollm2-random", {"q8_0": 7, "q4_k_m": 15}),
    "distilgpt2": ("distilgpt2-random", {"q8_0": 7, "q4_0": 2}),
    # Qwen2.5-0.5B's shapes (`make-checkpoint --qwen2.5`): the memory goal.
    "qwen25": ("qwen25-random", {"q4_k_m": 15}),
}


def gpt2_tokenizer_beside(folder, dst):
    """The checkpoint's files linked into `dst` with a tokenizer_config.json
    naming GPT-2's tokenizer: without one, transformers 4.57 reads the GPT-2
    vocabulary of a Llama or Qwen2 folder with that family's tokenizer class,
    which adds <s>, </s> and <unk> past the vocabulary, and the converter
    stops ("max(tokenizer.vocab.values()) < vocab_size")."""
    for name in os.listdir(folder):
        os.symlink(os.path.join(folder, name), os.path.join(dst, name))
    if "tokenizer_config.json" not in os.listdir(folder):
        end = "<|endoftext|>"
        with open(os.path.join(dst, "tokenizer_config.json"), "w") as f:
            json.dump({"tokenizer_class": "GPT2Tokenizer", "bos_token": end, "eos_token": end,
                       "unk_token": end}, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llama-src", required=True)
    ap.add_argument("--convert-python", required=True)
    ap.add_argument("--only", choices=sorted(MODELS), help="one checkpoint's files")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=os.path.join(args.llama_src, "gguf-py"))
    for prefix, (folder, types) in MODELS.items():
        if args.only and prefix != args.only:
            continue
        f16 = os.path.join(OUT, f"{prefix}-f16.gguf")
        with tempfile.TemporaryDirectory() as src:
            gpt2_tokenizer_beside(os.path.join(OUT, folder), src)
            subprocess.run([args.convert_python, os.path.join(args.llama_src, "convert_hf_to_gguf.py"),
                            src, "--outtype", "f16", "--outfile", f16],
                           check=True, env=env)
        for name, ftype in types.items():
            params = L.llama_model_quantize_default_params()
            params.ftype = ftype
            dst = os.path.join(OUT, f"{prefix}-{name}.gguf")
            rc = L.llama_model_quantize(f16.encode(), dst.encode(), params)
            assert rc == 0, f"quantize {dst}: {rc}"
            print(dst, os.path.getsize(dst))


if __name__ == "__main__":
    main()
