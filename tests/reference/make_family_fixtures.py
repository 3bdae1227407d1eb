"""Tiny random checkpoints of today's small-model families and what HF
transformers computes on them (issue #19): `LlamaForCausalLM` (SmolLM2's
architecture) and `Qwen2ForCausalLM` (Qwen2.5's).

What it writes (all committed; CI never needs torch):
  tests/fixtures/models/tiny-llama/   LlamaForCausalLM: 2 layers x 32 wide, 4 query heads over
                                      2 key/value heads (grouped-query attention), tied head,
                                      F32 storage, rope_theta 10000
  tests/fixtures/models/tiny-qwen2/   Qwen2ForCausalLM: 2 layers x 32 wide, 4 query heads over
                                      1 key/value head, q/k/v biases, untied lm_head, BF16
                                      storage, rope_theta 1e6
  tests/fixtures/hf/tiny-llama.json, tiny-qwen2.json
                                      logits through the KV cache, greedy, penalties, beam
                                      search, and sampling's processed distributions

Both use GPT-2's byte-level BPE (tests/fixtures/models/tokenizer.json) over the
full 50,257-token vocabulary: the real families' tokenizers cannot be fetched
here, and the engine's side of the tokenizer is the same `tokenizers` crate.
Norm weights and biases are random too (HF initialises them to 1 and 0, which
would leave them untested).

Run with transformers 5.24:
  python tests/reference/make_family_fixtures.py
"""

import os

import torch

from make_fixtures import (
    MODELS,
    NEW,
    PROMPTS,
    build_tokenizer_from_file,
    generate,
    hf_tokenizer,
    logits_summary,
    prompt_ids,
    run_record,
    write,
)

PROBES = 200


def make_llama(seed):
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=50257,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
        rms_norm_eps=1e-5,
        rope_theta=10000.0,
        tie_word_embeddings=True,
        initializer_range=0.5,
        bos_token_id=50256,
        eos_token_id=50256,
    )
    return finish(LlamaForCausalLM(config), torch.float32)


def make_qwen2(seed):
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(seed)
    config = Qwen2Config(
        vocab_size=50257,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=1,
        max_position_embeddings=128,
        rms_norm_eps=1e-6,
        rope_theta=1000000.0,
        tie_word_embeddings=False,
        use_sliding_window=False,
        initializer_range=0.5,
        bos_token_id=50256,
        eos_token_id=50256,
    )
    return finish(Qwen2ForCausalLM(config), torch.bfloat16)


def finish(model, dtype):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("norm.weight"):
                p.copy_(1.0 + 0.2 * torch.randn_like(p))
            elif name.endswith(".bias"):
                p.copy_(0.3 * torch.randn_like(p))
            # Round to the storage dtype so that HF computes on exactly the stored values.
            p.copy_(p.to(dtype).to(torch.float32))
    model.eval()
    return model


def save(model, name, dtype):
    from safetensors.torch import save_file

    out = os.path.join(MODELS, name)
    os.makedirs(out, exist_ok=True)
    model.config.dtype = dtype
    model.config.architectures = [type(model).__name__]
    model.config.save_pretrained(out)
    model.generation_config.save_pretrained(out)
    tied = model.config.tie_word_embeddings
    # As the hub's files are: a tied head is not stored twice.
    state = {k: v.to(dtype).contiguous() for k, v in model.state_dict().items() if not (tied and k == "lm_head.weight")}
    save_file(state, os.path.join(out, "model.safetensors"), metadata={"format": "pt"})
    link = os.path.join(out, "tokenizer.json")
    if not os.path.lexists(link):
        os.symlink("../tokenizer.json", link)


def fixtures(model, name):
    tok = build_tokenizer_from_file()
    tok_hf = hf_tokenizer()
    gen = torch.Generator().manual_seed(11)
    probe_ids = torch.randint(0, 50257, (PROBES,), generator=gen).tolist()
    prompts = {k: prompt_ids(tok, v) for k, v in PROMPTS.items()}

    cases = []
    for key, ids in prompts.items():
        res = generate(model, tok_hf, ids, {"max_new_tokens": 8, "do_sample": False})
        cases.append({
            "prompt": key,
            "prompt_ids": ids,
            "greedy_ids": res.sequences[0, len(ids):].tolist(),
            "steps": [logits_summary(l[0], probe_ids) for l in res.logits],
        })

    greedy = generate(model, tok_hf, prompts["programming"], {"max_new_tokens": NEW}).sequences[0, len(prompts["programming"]):].tolist()
    eos_a = greedy[3]
    deterministic = {
        "greedy": {"max_new_tokens": NEW},
        "repetition_1.3": {"max_new_tokens": NEW, "repetition_penalty": 1.3},
        "no_repeat_2": {"max_new_tokens": NEW, "no_repeat_ngram_size": 2},
        "eos_stops": {"max_new_tokens": NEW, "eos_token_id": eos_a},
        "beam4": {"max_new_tokens": 12, "num_beams": 4},
        "beam3_lp0.5_early": {"max_new_tokens": 12, "num_beams": 3, "length_penalty": 0.5, "early_stopping": True},
        "beam4_return3_ngram": {"max_new_tokens": 12, "num_beams": 4, "num_return_sequences": 3, "no_repeat_ngram_size": 2},
    }
    sampling = {
        "sample_default": {"max_new_tokens": NEW, "do_sample": True, "seed": 0},
        "t0.7_p0.9": {"max_new_tokens": NEW, "do_sample": True, "temperature": 0.7, "top_p": 0.9, "seed": 1},
        "t1.5_k0": {"max_new_tokens": NEW, "do_sample": True, "temperature": 1.5, "top_k": 0, "seed": 2},
        "k5": {"max_new_tokens": NEW, "do_sample": True, "top_k": 5, "seed": 4},
        "min_p0.1": {"max_new_tokens": NEW, "do_sample": True, "top_k": 0, "min_p": 0.1, "seed": 6},
        "everything": {"max_new_tokens": NEW, "do_sample": True, "temperature": 0.8, "top_k": 20, "top_p": 0.8, "min_p": 0.05,
                       "typical_p": 0.95, "repetition_penalty": 1.2, "no_repeat_ngram_size": 2, "min_new_tokens": 4,
                       "eos_token_id": eos_a, "seed": 10},
    }
    runs = []
    for key in ("programming", "history"):
        ids = prompts[key]
        for cname, cfg in deterministic.items():
            runs.append(run_record(f"{key}/{cname}", model, tok_hf, ids, cfg, False))
        for cname, cfg in sampling.items():
            runs.append(run_record(f"{key}/{cname}", model, tok_hf, ids, cfg, True))
    runs.append(run_record("empty/greedy", model, tok_hf, prompts["empty"], {"max_new_tokens": 8}, False))

    defaults = model_defaults_fixture(model, tok_hf, prompts) if name == "tiny-qwen2" else None

    write(f"{name}.json", {
        "model": name,
        "architecture": model.config.architectures[0],
        "transformers": __import__("transformers").__version__,
        "torch": torch.__version__,
        "logits": {"probe_ids": probe_ids, "cases": cases},
        "runs": runs,
        **({"model_defaults": defaults} if defaults else {}),
    })


def model_defaults_fixture(model, tok_hf, prompts):
    """generate() on a model whose generation_config.json sets knobs (as
    Qwen2.5-Instruct's does): the lane's own arguments win, the model's file
    fills the rest. Each lane is recorded as the call's arguments only."""
    from transformers import GenerationConfig

    file = {"bos_token_id": 50256, "pad_token_id": 50256, "do_sample": True, "eos_token_id": [50256],
            "repetition_penalty": 1.1, "temperature": 0.7, "top_k": 20, "top_p": 0.8,
            "transformers_version": "4.37.0"}
    saved = model.generation_config
    model.generation_config = GenerationConfig(**{k: v for k, v in file.items() if k != "transformers_version"})
    lanes = {
        "nothing_said": {"max_new_tokens": NEW, "seed": 3},
        "greedy_said": {"max_new_tokens": NEW, "do_sample": False},
        "own_temperature": {"max_new_tokens": NEW, "temperature": 1.3, "top_k": 0, "seed": 4},
    }
    knobs = {k: v for k, v in file.items() if k not in ("bos_token_id", "pad_token_id", "transformers_version")}
    runs = []
    for key in ("programming", "history"):
        for lname, lane in lanes.items():
            merged = {**knobs, **lane}
            runs.append(run_record(f"{key}/{lname}", model, tok_hf, prompts[key], lane, merged["do_sample"],
                                   processors_cfg=merged))
    model.generation_config = saved
    return {"generation_config": file, "runs": runs}


if __name__ == "__main__":
    torch.set_num_threads(2)
    llama = make_llama(2024)
    save(llama, "tiny-llama", torch.float32)
    fixtures(llama, "tiny-llama")
    qwen2 = make_qwen2(2025)
    save(qwen2, "tiny-qwen2", torch.bfloat16)
    fixtures(qwen2, "tiny-qwen2")
