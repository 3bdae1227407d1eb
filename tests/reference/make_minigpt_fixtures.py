"""MiniGPTs as seed 004's students save them, and what dnnlpy computes on them.

Each model is `dnnlpy.models.gpt.MiniGPT` (dnnlpy 2026.10.2 from PyPI, torch
2.14, Python 3.12) with random weights (scaled up from dnnlpy's 0.02 init so
the distributions have shape), saved as the tutorial saves it:
`torch.save(model.state_dict(), 'minigpt.pt')` beside a BPE `tokenizer.json`
trained with `tokenizers` on a few sentences below.

  tiny/      the tutorial's options (bias, tied head), 4 heads, no config.json
  untied/    bias=False, weight_tying=False, hidden_dim 40, 2 heads (config.json)
  half/      `tiny`'s model saved after `.half()` (F16 storage)
  bad/       files the loader must refuse with a message: a pickle calling
             os.system, an nn.Linear's state dict, a list, `tiny` with one
             tensor renamed; and `tiny` inside a training checkpoint dict
             (`wrapped.pt`), which loads

For each, `expected.json` holds:
  - `logits`: dnnlpy's forward on a fixed id sequence, all positions, f32
    (`model(ids)[0]`), as lists;
  - `greedy`: the tutorial's `generate(..., do_sample=False)` from a prompt
    for 40 tokens, past `block_size` (16), so the crop is exercised;
  - `filtered`: for a few logits rows, seed 004's `sample_next_token` steps
    (temperature, top_k, top_p, as `dnnlpy.models.gpt` writes them) up to the
    softmax, the probabilities a draw is made from.

Run (Python 3.12 venv: pip install dnnlpy==2026.10.2):
  python tests/reference/make_minigpt_fixtures.py
"""

import json
import os

import torch
import dnnlpy.models.gpt as gpt
import dnnlpy.nn.functional as dF
from tokenizers import Tokenizer, models, pre_tokenizers, decoders, trainers

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures", "minigpt")
BLOCK = 16

CORPUS = [
    "Once upon a time, there was a little girl who lived in a village near the forest.",
    "Whenever she went out, the little girl wore a red riding cloak, so everyone in the village called her Little Red Riding Hood.",
    "One morning, Little Red Riding Hood asked her mother if she could go to visit her grandmother as it had been awhile since they'd seen each other.",
    "The wolf ran to the grandmother's house and knocked on the door.",
    "In the beginning God created the heaven and the earth.",
    "小红帽走进了森林。",
]


def tokenizer():
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(CORPUS * 20, trainer)
    return tok


def scaled(model, seed):
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name:
                p.copy_(1.0 + 0.1 * torch.randn(p.shape, generator=g))
            else:
                p.copy_(0.25 * torch.randn(p.shape, generator=g))
    return model.eval()


@torch.inference_mode()
def generate(model, ids, max_new_tokens):
    # Seed 004's loop, greedy: crop to the last block_size, argmax of the last row.
    ids = torch.tensor([ids])
    for _ in range(max_new_tokens):
        logits = model(ids[:, -BLOCK:])
        nxt = gpt.sample_next_token(logits[:, -1, :], greedy=True)
        ids = torch.cat([ids, nxt], dim=1)
    return ids[0].tolist()


def filtered(row, temperature, top_k, top_p):
    # sample_next_token up to its softmax (before the multinomial draw).
    logits = row[None, :] / temperature
    if top_k is not None:
        logits = gpt.top_k_sampling(logits, top_k=top_k)
    if top_p is not None:
        logits = gpt.top_p_sampling(logits, top_p=top_p)
    return dF.softmax(logits, dim=-1)[0]


def write(name, model, tok, config=None):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(d, "minigpt.pt"))
    tok.save(os.path.join(d, "tokenizer.json"))
    if config is not None:
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(config, f, indent=1)
    prompt = tok.encode("Once upon a time, there was a little girl").ids
    seq = tok.encode("The wolf ran to the grandmother's house and knocked").ids[:BLOCK]
    with torch.inference_mode():
        m32 = model.float()
        logits = m32(torch.tensor([seq]))[0]
        knobs = [(1.0, None, None), (0.8, 5, 0.9), (1.3, None, 0.5), (0.7, 3, None), (1.0, 0, 1.0)]
        rows = []
        for pos in (0, len(seq) // 2, len(seq) - 1):
            for t, k, p in knobs:
                probs = filtered(logits[pos], t, k, p)
                rows.append({"position": pos, "temperature": t, "top_k": k, "top_p": p,
                             "probs": probs.tolist()})
        expected = {
            "dnnlpy": "2026.10.2",
            "torch": torch.__version__,
            "sequence": seq,
            "logits": logits.tolist(),
            "prompt": prompt,
            "greedy": generate(m32, prompt, 40),
            "filtered": rows,
        }
    with open(os.path.join(d, "expected.json"), "w") as f:
        json.dump(expected, f)


def main():
    tok = tokenizer()
    vocab = tok.get_vocab_size()
    torch.manual_seed(0)
    tiny = scaled(gpt.MiniGPT(vocab_size=vocab, block_size=BLOCK, embed_dim=32, num_layers=2, num_heads=4, hidden_dim=48), 1)
    write("tiny", tiny, tok)
    untied = scaled(gpt.MiniGPT(vocab_size=vocab, block_size=BLOCK, embed_dim=32, num_layers=3, num_heads=2,
                                hidden_dim=40, bias=False, weight_tying=False), 2)
    write("untied", untied, tok, {"num_heads": 2})
    half = scaled(gpt.MiniGPT(vocab_size=vocab, block_size=BLOCK, embed_dim=32, num_layers=2, num_heads=4, hidden_dim=48), 3).half()
    write("half", half, tok)

    bad = os.path.join(OUT, "bad")
    os.makedirs(bad, exist_ok=True)

    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    torch.save({"x": Evil()}, os.path.join(bad, "evil.pt"))
    torch.save(torch.nn.Linear(4, 3).state_dict(), os.path.join(bad, "linear.pt"))
    torch.save([1, 2, 3], os.path.join(bad, "list.pt"))
    sd = tiny.state_dict()
    renamed = {(k.replace("blocks.1.attn.attn.k_proj", "blocks.1.attn.attn.key")): v for k, v in sd.items()}
    torch.save(renamed, os.path.join(bad, "renamed.pt"))
    torch.save({"model": sd, "step": 100}, os.path.join(bad, "wrapped.pt"))


if __name__ == "__main__":
    main()
