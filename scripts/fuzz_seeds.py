"""Writes one valid seed per fuzz target: a tiny GPT-2 safetensors file that
matches the checkpoint target's config, a generation config, a share link,
the shipped lessons, and worker messages."""
import base64, json, os, struct, sys, zlib

out = sys.argv[1]

def write(target, name, data):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(data)

# vocab 16, positions 8, width 8, 1 layer: the shapes fuzz_targets/checkpoint.rs expects.
V, P, E = 16, 8, 8
shapes = {
    "wte.weight": [V, E], "wpe.weight": [P, E],
    "h.0.ln_1.weight": [E], "h.0.ln_1.bias": [E],
    "h.0.attn.c_attn.weight": [E, 3 * E], "h.0.attn.c_attn.bias": [3 * E],
    "h.0.attn.c_proj.weight": [E, E], "h.0.attn.c_proj.bias": [E],
    "h.0.ln_2.weight": [E], "h.0.ln_2.bias": [E],
    "h.0.mlp.c_fc.weight": [E, 4 * E], "h.0.mlp.c_fc.bias": [4 * E],
    "h.0.mlp.c_proj.weight": [4 * E, E], "h.0.mlp.c_proj.bias": [E],
    "ln_f.weight": [E], "ln_f.bias": [E],
}
header, data = {}, b""
for name, shape in shapes.items():
    n = 1
    for d in shape:
        n *= d
    blob = struct.pack(f"<{n}e", *[((i % 7) - 3) / 10 for i in range(n)])  # F16
    header[name] = {"dtype": "F16", "shape": shape, "data_offsets": [len(data), len(data) + len(blob)]}
    data += blob
h = json.dumps(header).encode()
write("checkpoint", "tiny-f16.safetensors", struct.pack("<Q", len(h)) + h + data)

write("generation_config", "sample.json", json.dumps({"do_sample": True, "temperature": 0.7, "top_p": 0.9, "top_k": 0, "max_new_tokens": 40, "seed": 3, "stop_strings": ["."], "eos_token_id": [13, 50256]}).encode())
write("generation_config", "beam.json", json.dumps({"num_beams": 4, "early_stopping": "never", "length_penalty": -0.5, "num_return_sequences": 2, "no_repeat_ngram_size": 2}).encode())

state = {"prompt": "The best way to learn programming is", "lanes": [{}, {"do_sample": True, "temperature": 0.7, "top_p": 0.9}, {"num_beams": 4}, {"penalty_alpha": 0.6, "top_k": 4}], "shared_seed": 1, "model": "bundled", "score": " to practice"}
c = zlib.compressobj(9, zlib.DEFLATED, -15)
packed = c.compress(json.dumps(state).encode()) + c.flush()
write("share_link", "lesson", ("1." + base64.urlsafe_b64encode(packed).decode().rstrip("=")).encode())

# Every shipped lesson, as a teacher's file would look.
lessons = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "www", "lessons")
for name in sorted(os.listdir(lessons)):
    if name.endswith(".json") and name != "index.json":
        with open(os.path.join(lessons, name), "rb") as f:
            write("lesson", name, f.read())

# Worker messages as the page receives them: a finished run (a shipped
# recording), one of its steps, and a beam step whose score is -inf.
recordings = os.path.join(lessons, "recordings")
name = sorted(n for n in os.listdir(recordings) if n.endswith(".json"))[0]
with open(os.path.join(recordings, name)) as f:
    doc = json.load(f)
write("worker_message", "finished.json", json.dumps({"type": "finished", "run_id": 1, "document": doc, "shown_texts": [], "ms": 12.5}).encode())
step = doc["runs"][0]["steps"][0]
write("worker_message", "step.json", json.dumps({"type": "step", "run_id": 1, "lane": 0, "index": 0, "step": step, "text": step["token"]}).encode())
write("worker_message", "inf.json", json.dumps({"type": "step", "run_id": 1, "lane": 0, "index": 0, "step": dict(step, entropy="inf", raw_entropy="-inf"), "text": step["token"]}).encode())
# A GGUF repo as the hub lists it: LFS sizes, a projector, split parts, a sub-folder.
listing = [{"type": "file", "oid": "a", "size": 1519, "path": ".gitattributes"}] + [
    {"type": "file", "oid": "b", "size": 135, "path": n, "lfs": {"oid": "c", "size": s, "pointerSize": 135}}
    for n, s in [("SmolLM2-135M-Instruct-Q4_K_M.gguf", 105468384), ("SmolLM2-135M-Instruct-Q8_0.gguf", 144811488),
                 ("model.Q4_K_M.gguf", 1), ("mmproj-f16.gguf", 2), ("big-00001-of-00002.gguf", 3), ("sub/x.gguf", 4)]
] + [{"type": "directory", "oid": "d", "size": 0, "path": "sub"}]
write("hub_listing", "tree.json", json.dumps(listing).encode())
write("site_models", "index.json", json.dumps({"models": [{"folder": "distilgpt2", "architecture": "GPT2LMHeadModel", "bytes": 352824413, "note": "our class"}]}).encode())

# The same tiny GPT-2 as llama.cpp lays it out (GGUF v3): its sizes in the
# metadata, matrices outputs-first, F32 but for the MLP's down projection
# (4·8 = 32 inputs: one Q8_0 block per row).
def gguf_string(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b
kv = [("general.architecture", 8, gguf_string("gpt2")), ("gpt2.context_length", 4, struct.pack("<I", P)),
      ("gpt2.embedding_length", 4, struct.pack("<I", E)), ("gpt2.block_count", 4, struct.pack("<I", 1)),
      ("gpt2.attention.head_count", 4, struct.pack("<I", 2)), ("gpt2.feed_forward_length", 4, struct.pack("<I", 4 * E)),
      ("gpt2.attention.layer_norm_epsilon", 6, struct.pack("<f", 1e-5)),
      ("tokenizer.ggml.bos_token_id", 4, struct.pack("<I", 0)), ("tokenizer.ggml.eos_token_id", 4, struct.pack("<I", 0))]
names = {"wte.weight": "token_embd.weight", "wpe.weight": "position_embd.weight", "ln_f.weight": "output_norm.weight",
         "ln_f.bias": "output_norm.bias"}
for k, v in [("ln_1", "attn_norm"), ("attn.c_attn", "attn_qkv"), ("attn.c_proj", "attn_output"), ("ln_2", "ffn_norm"),
             ("mlp.c_fc", "ffn_up"), ("mlp.c_proj", "ffn_down")]:
    for p in ("weight", "bias"):
        names[f"h.0.{k}.{p}"] = f"blk.0.{v}.{p}"
infos, blobs, offset = b"", b"", 0
for hf, shape in shapes.items():
    # ggml's order, inputs first: a Conv1D's [in, out] as it is, the rest reversed.
    ne = list(shape) if hf.startswith("h.") else list(reversed(shape))
    n = 1
    for d in shape:
        n *= d
    if hf == "h.0.mlp.c_proj.weight":  # [out 8, in 32]: one Q8_0 block per row
        blob = b"".join(struct.pack("<e", 0.01) + bytes((i * 7 + r) % 256 - 128 & 0xFF for i in range(32)) for r in range(E))
        ne, ty = [4 * E, E], 8
    else:
        blob = struct.pack(f"<{n}f", *[((i % 7) - 3) / 10 for i in range(n)])
        ty = 0
    infos += gguf_string(names[hf]) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", d) for d in ne) + struct.pack("<IQ", ty, offset)
    pad = (-len(blob)) % 32
    blobs += blob + b"\0" * pad
    offset += len(blob) + pad
head = b"GGUF" + struct.pack("<IQQ", 3, len(shapes), len(kv)) + b"".join(gguf_string(k) + struct.pack("<I", t) + v for k, t, v in kv) + infos
head += b"\0" * ((-len(head)) % 32)
write("gguf", "tiny.gguf", head + blobs)
