"""The transformers.js peer's files: the distilgpt2-shaped random checkpoint
(bench/out/distilgpt2-random) exported to ONNX by optimum-onnx
(`text-generation-with-past`, tied head deduplicated), and its q8 form made by
onnxruntime's dynamic quantizer (8-bit weights, uint8, per tensor), laid out
as transformers.js reads a model: bench/out/onnx/distilgpt2-random/{config,
tokenizer…}.json and onnx/model.onnx, onnx/model_quantized.onnx. Not
committed (~330 and ~85 MB).

Run in a venv with optimum-onnx, onnxruntime and accelerate (it pins an older
transformers than the HF oracle's; torch may come from another venv):
  python bench/make_onnx.py
"""

import os
import shutil
import subprocess
import sys

from onnxruntime.quantization import QuantType, quantize_dynamic

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "out", "distilgpt2-random")
OUT = os.path.join(HERE, "out", "onnx", "distilgpt2-random")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    cli = os.path.join(os.path.dirname(sys.executable), "optimum-cli")
    subprocess.run([cli, "export", "onnx", "--model", SRC, "--task", "text-generation-with-past", OUT],
                   check=True)
    onnx = os.path.join(OUT, "onnx")
    os.makedirs(onnx)
    for name in os.listdir(OUT):
        if name.endswith(".onnx") or name.endswith(".onnx_data"):
            shutil.move(os.path.join(OUT, name), os.path.join(onnx, name))
    quantize_dynamic(os.path.join(onnx, "model.onnx"), os.path.join(onnx, "model_quantized.onnx"),
                     weight_type=QuantType.QUInt8)
    for name in sorted(os.listdir(onnx)):
        print(name, os.path.getsize(os.path.join(onnx, name)))


if __name__ == "__main__":
    main()
