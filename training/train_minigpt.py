"""Trains "the tutorial's MiniGPT": seed 004's model, the way its course trains
it, small enough to ship beside the page so a lesson can put a student's kind
of model next to GPT-2 offline.

  model      dnnlpy.models.gpt.MiniGPT(vocab_size, block_size=128, embed_dim=256,
             num_layers=4, num_heads=4, dropout=0.1) — the tutorial's own sizes
  tokenizer  a byte-level BPE (`tokenizers`, 2,048 tokens) trained on the text
  text       the King James Bible (public domain), Debian's `bible-kjv-text`
  saved as   torch.save(model.state_dict(), 'minigpt.pt') beside tokenizer.json,
             exactly what the tutorial loads; stored in F16 to keep the file
             small (the page reads F16 as it reads F32). config.json gives
             dnnlpy's arguments (the head count a .pt cannot tell).

Reproduce (minutes on two CPU cores; training.json records loss and tokens):
  apt-get install bible-kjv bible-kjv-text
  python training/train_minigpt.py --minutes 25 --out www/models/tutorial-minigpt

Needs Python 3.12 with dnnlpy 2026.10.2 from PyPI (it brings torch 2.14).
"""

import argparse
import json
import math
import os
import re
import subprocess
import time

import torch
import dnnlpy.models.gpt as gpt
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

BLOCK = 128


def kjv_verses():
    raw = subprocess.run(["bible", "-f", "Ge1:1-Re22:21"], capture_output=True, text=True, check=True).stdout
    verses = [m.group(1).strip() for line in raw.splitlines() if (m := re.match(r"^\S+?\d+:\d+ (.*)$", line))]
    assert len(verses) > 31000, len(verses)
    return verses


def train_tokenizer(verses, vocab):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator((v + "\n" for v in verses), trainer)
    return tok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=25)
    ap.add_argument("--out", required=True)
    ap.add_argument("--vocab", type=int, default=2048)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(42)
    os.makedirs(args.out, exist_ok=True)

    verses = kjv_verses()
    tok = train_tokenizer(verses, args.vocab)
    eot = tok.token_to_id("<|endoftext|>")
    ids = []
    for i, v in enumerate(verses):
        ids.extend(tok.encode(v + "\n").ids)
        if i % 30 == 29:
            ids.append(eot)
    data = torch.tensor(ids, dtype=torch.long)
    split = int(len(data) * 0.98)
    train, val = data[:split], data[split:]

    model = gpt.MiniGPT(vocab_size=tok.get_vocab_size(), block_size=BLOCK, embed_dim=256,
                        num_layers=4, num_heads=4, dropout=0.1)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.05)
    batch, warmup = 16, 100
    deadline = time.time() + args.minutes * 60
    start, step, losses = time.time(), 0, []

    def val_loss(n=8):
        model.eval()
        with torch.no_grad():
            out = sum(model.loss(gpt.get_batch(val, BLOCK, batch)[0]).item() for _ in range(n)) / n
        model.train()
        return out

    def save():
        # The tutorial's own save, in F16; the model keeps training in F32.
        half = {k: v.detach().half() for k, v in model.state_dict().items()}
        torch.save(half, os.path.join(args.out, "minigpt.pt"))
        tok.save(os.path.join(args.out, "tokenizer.json"))
        config = {"model_type": "minigpt", "vocab_size": tok.get_vocab_size(), "block_size": BLOCK, "embed_dim": 256,
                  "num_layers": 4, "num_heads": 4, "eos_token_id": eot}
        with open(os.path.join(args.out, "config.json"), "w") as f:
            json.dump(config, f, indent=1)
        with open(os.path.join(args.out, "training.json"), "w") as f:
            json.dump({"text": "King James Bible (bible-kjv-text)", "tokens": len(data), "steps": step,
                       "tokens_seen": step * batch * BLOCK, "minutes": (time.time() - start) / 60,
                       "losses": losses, "dnnlpy": "2026.10.2", "torch": torch.__version__}, f, indent=1)

    model.train()
    last_save = time.time()
    while time.time() < deadline:
        frac = (time.time() - start) / (deadline - start)
        lr = args.lr * min(1.0, (step + 1) / warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(frac, 1.0))))
        for g in opt.param_groups:
            g["lr"] = lr
        x, _ = gpt.get_batch(train, BLOCK, batch)
        loss = model.loss(x)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        if step % 200 == 0:
            v = val_loss()
            losses.append({"step": step, "train": round(loss.item(), 4), "val": round(v, 4)})
            print(f"step {step} train {loss.item():.3f} val {v:.3f} lr {lr:.2e}", flush=True)
        if time.time() - last_save > 180:
            save()
            last_save = time.time()
    losses.append({"step": step, "val": round(val_loss(16), 4)})
    save()
    print("done", step, losses[-1])


if __name__ == "__main__":
    main()
