"""The quantized bench files: the SmolLM2-shaped random checkpoint
(`ntl-bench make-checkpoint --smollm2`, bench/out/smollm2-random) converted by
llama.cpp's own `convert_hf_to_gguf.py` to F16 and quantized by its
`llama_model_quantize` to Q8_0 and Q4_K_M, as bench/out/smollm2-<type>.gguf.
Not committed (100–270 MB each); scripts/bench.sh runs its quantized stage
when they exist.

Run in a venv with llama-cpp-python (0.3.36) whose sdist gives the converter
(its `vendor/llama.cpp`), and a Python with torch and transformers for it:
  python bench/make_gguf.py --llama-src SDIST/vendor/llama.cpp \
      --convert-python /path/to/venv-with-torch/bin/python
"""

import argparse
import os
import subprocess

import llama_cpp as L

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "out")
# llama.cpp's LLAMA_FTYPE_* numbers.
TYPES = {"q8_0": 7, "q4_k_m": 15}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llama-src", required=True)
    ap.add_argument("--convert-python", required=True)
    args = ap.parse_args()
    model = os.path.join(OUT, "smollm2-random")
    f16 = os.path.join(OUT, "smollm2-f16.gguf")
    env = dict(os.environ, PYTHONPATH=os.path.join(args.llama_src, "gguf-py"))
    subprocess.run([args.convert_python, os.path.join(args.llama_src, "convert_hf_to_gguf.py"),
                    model, "--outtype", "f16", "--outfile", f16], check=True, env=env)
    for name, ftype in TYPES.items():
        params = L.llama_model_quantize_default_params()
        params.ftype = ftype
        dst = os.path.join(OUT, f"smollm2-{name}.gguf")
        rc = L.llama_model_quantize(f16.encode(), dst.encode(), params)
        assert rc == 0, f"quantize {dst}: {rc}"
        print(dst, os.path.getsize(dst))


if __name__ == "__main__":
    main()
