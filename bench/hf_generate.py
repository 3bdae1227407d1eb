"""HF transformers generate() on the benchmark workload: the four default
lanes, one generate() call each (HF cannot batch different configs), and one
greedy lane alone; PyTorch on CPU with 2 threads. Prints one JSON object.

    python bench/hf_generate.py MODEL_DIR [RUNS]

Needs torch and transformers (see the engine issue's install recipe); the
benchmark script skips this engine when they are missing."""
import json, statistics, sys, time

import torch
from transformers import AutoModelForCausalLM, PreTrainedTokenizerFast

PROMPT = "The best way to learn programming is"
NEW_TOKENS = 64
LANES = [
    {},
    {"do_sample": True, "temperature": 0.7, "top_p": 0.9},
    {"do_sample": True, "temperature": 1.5},
    {"no_repeat_ngram_size": 3},
]

model_dir = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
torch.set_num_threads(2)
t = time.perf_counter()
model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
load_ms = (time.perf_counter() - t) * 1e3
tok = PreTrainedTokenizerFast(tokenizer_file=f"{model_dir}/tokenizer.json")
ids = torch.tensor([tok.encode(PROMPT)])


def generate(cfg):
    torch.manual_seed(0)
    t = time.perf_counter()
    with torch.no_grad():
        out = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS,
                             pad_token_id=50256, **cfg)
    return (time.perf_counter() - t) * 1e3, out.shape[1] - ids.shape[1]


generate(LANES[0])  # warm-up
one, four = [], []
for _ in range(runs):
    one.append(generate(LANES[0])[0])
    lanes = [generate(c) for c in LANES]
    four.append(sum(ms for ms, _ in lanes))
tokens = NEW_TOKENS * len(LANES)
f, o = statistics.median(four), statistics.median(one)
print(json.dumps({
    "engine": "hf", "runs": runs, "load_ms": load_ms, "torch": torch.__version__,
    "four_lanes": {"tokens": tokens, "total_ms": f, "tokens_per_s": tokens * 1e3 / f, "step_ms": f / NEW_TOKENS},
    "one_lane": {"tokens": NEW_TOKENS, "total_ms": o, "tokens_per_s": NEW_TOKENS * 1e3 / o, "step_ms": o / NEW_TOKENS},
}))
