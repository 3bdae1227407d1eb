"""Trains the page's bundled offline model: GPT-2 architecture and the real GPT-2
tokenizer, small enough to ship with the page (F16, about 15 MB), trained on
public-domain English: the King James Bible from Debian's `bible-kjv-text`.

It writes readable (if Biblical) English, greedy visibly loops, and the knobs
visibly matter — what the lessons need. It is not distilgpt2; the page says so.

Reproduce (the shipped model: 75 minutes, then continued with --init at a lower rate;
training.json beside the model records tokens seen and losses):
  apt-get install bible-kjv bible-kjv-text
  python training/train_bundled_model.py --minutes 75 --out /tmp/kjv
  python training/train_bundled_model.py --init /tmp/kjv --lr 1e-3 --minutes 45 --out www/models/kjv-gpt2
  cp tests/fixtures/models/tokenizer.json www/models/kjv-gpt2/

Needs torch, transformers and safetensors (see tests/reference for the install).
Checkpoints are written every few minutes, so a stopped run still leaves a model.
"""

import argparse
import json
import math
import os
import random
import re
import subprocess
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
TOKENIZER = os.path.join(HERE, "..", "tests", "fixtures", "models", "tokenizer.json")


def kjv_text():
    """The whole KJV as plain paragraphs: one verse per line, references stripped."""
    raw = subprocess.run(["bible", "-f", "Ge1:1-Re22:21"], capture_output=True, text=True, check=True).stdout
    verses = []
    for line in raw.splitlines():
        m = re.match(r"^\S+?\d+:\d+ (.*)$", line)
        if m:
            verses.append(m.group(1).strip())
    assert len(verses) > 31000, len(verses)
    return verses


def encode(verses):
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(TOKENIZER)
    ids = []
    # Verses joined with newlines, chapters of 30 verses separated by eos: the
    # model learns both line breaks and document ends.
    for i, v in enumerate(verses):
        ids.extend(tok.encode(v + "\n").ids)
        if i % 30 == 29:
            ids.append(50256)
    return torch.tensor(ids, dtype=torch.long)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "www", "models", "kjv-gpt2"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", help="continue from the model in this folder (a previous --out)")
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    args = ap.parse_args()

    from safetensors.torch import save_file
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(2)
    data = encode(kjv_text())
    n_val = len(data) // 50
    train, val = data[:-n_val], data[-n_val:]
    print(f"{len(data)} tokens ({len(train)} train, {n_val} validation)", flush=True)

    config = GPT2Config(
        vocab_size=50257, n_positions=256, n_embd=128, n_layer=4, n_head=4,
        bos_token_id=50256, eos_token_id=50256, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
    )
    if args.init:
        model = GPT2LMHeadModel.from_pretrained(args.init, torch_dtype=torch.float32)
        with open(os.path.join(args.init, "training.json")) as f:
            previous = json.load(f)
    else:
        model = GPT2LMHeadModel(config)
        previous = {"tokens_seen": 0, "minutes": 0.0}
    print(f"{sum(p.numel() for p in model.parameters())} parameters", flush=True)
    block, batch = 128, 16
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.05)
    budget = args.minutes * 60
    warmup = 200
    start = time.time()
    last_save = start

    def lr_at(frac, step):
        return args.lr * min(1.0, (step + 1) / warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(frac, 1.0))))

    def batch_of(src):
        ix = torch.randint(0, len(src) - block - 1, (batch,))
        x = torch.stack([src[i : i + block] for i in ix])
        return x

    def save(tag):
        os.makedirs(args.out, exist_ok=True)
        model.config.save_pretrained(args.out)
        state = {k: v.detach().to(torch.float16).contiguous() for k, v in model.state_dict().items() if k != "lm_head.weight"}
        save_file(state, os.path.join(args.out, "model.safetensors"), metadata={"format": "pt"})
        with open(os.path.join(args.out, "training.json"), "w") as f:
            json.dump({"corpus": "King James Bible (Debian bible-kjv-text), public domain",
                       "tokens_seen": previous["tokens_seen"] + step * block * batch,
                       "minutes": previous["minutes"] + (time.time() - start) / 60,
                       "train_loss": ema, "val_loss": val_loss, "tag": tag}, f, indent=1)

    step, ema, val_loss = 0, None, None
    model.train()
    while time.time() - start < budget:
        frac = (time.time() - start) / budget
        for g in opt.param_groups:
            g["lr"] = lr_at(frac, step)
        x = batch_of(train)
        loss = model(x, labels=x).loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        ema = loss.item() if ema is None else 0.98 * ema + 0.02 * loss.item()
        step += 1
        if step % 100 == 0:
            print(f"step {step} loss {ema:.3f} {(time.time() - start) / 60:.1f} min", flush=True)
        if time.time() - last_save > 300:
            model.eval()
            with torch.no_grad():
                val_loss = sum(model(v := batch_of(val), labels=v).loss.item() for _ in range(4)) / 4
            model.train()
            save("checkpoint")
            last_save = time.time()
            print(f"saved; validation loss {val_loss:.3f}", flush=True)
    model.eval()
    with torch.no_grad():
        val_loss = sum(model(v := batch_of(val), labels=v).loss.item() for _ in range(8)) / 8
    save("final")
    print(f"done: {step} steps, train {ema:.3f}, validation {val_loss:.3f}", flush=True)


if __name__ == "__main__":
    main()
