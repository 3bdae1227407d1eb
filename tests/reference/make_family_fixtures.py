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

import json
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
    for r in runs:
        # What the page shows a lane writing (the page's tests read text).
        r["text"] = tok_hf.decode(r["sequences"][0])

    defaults = model_defaults_fixture(model, tok_hf, prompts) if name == "tiny-qwen2" else None

    write(f"{name}.json", {
        "model": name,
        "architecture": model.config.architectures[0],
        "parameters": model.num_parameters(),
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


# The chat templates of the families' Instruct models, as their repos'
# tokenizer_config.json carry them (SmolLM2-Instruct; Qwen2.5-Instruct,
# tool calls included).
SMOLLM2_TEMPLATE = (
    "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}"
    "{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)
QWEN25_TEMPLATE = """{%- if tools %}
    {{- '<|im_start|>system\\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with function signatures within <tools></tools> XML tags:\\n<tools>" }}
    {%- for tool in tools %}
        {{- "\\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\\n</tool_call><|im_end|>\\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}
    {%- else %}
        {{- '<|im_start|>system\\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\\n<tool_call>\\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\\n<tool_response>\\n' }}
        {{- message.content }}
        {{- '\\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\\n' }}
{%- endif %}
"""

CONVERSATIONS = {
    "one_question": [{"role": "user", "content": "What is the capital of France?"}],
    "with_system": [
        {"role": "system", "content": "You answer in one word."},
        {"role": "user", "content": "Name a colour of the sky."},
    ],
    "turns": [
        {"role": "user", "content": "Hi!"},
        {"role": "assistant", "content": "Hello! How can I help?"},
        {"role": "user", "content": "Tell me a joke about <tags> & \"quotes\" — and café ☕."},
    ],
    "system_later": [
        {"role": "user", "content": "First."},
        {"role": "system", "content": "Be brief.\n\nVery brief."},
        {"role": "user", "content": "  Second, with spaces  "},
    ],
}


def chat_fixtures():
    """Each template rendered by HF's apply_chat_template over conversations,
    with and without the generation prompt, and the ids of the rendered text
    (special tokens from the text, as apply_chat_template(tokenize=True))."""
    from tokenizers import AddedToken
    from transformers import PreTrainedTokenizerFast

    chat_dir = os.path.join(MODELS, "..", "chat")
    os.makedirs(chat_dir, exist_ok=True)
    tok = build_tokenizer_from_file()
    tok.add_special_tokens([AddedToken("<|im_start|>", special=True, normalized=False),
                            AddedToken("<|im_end|>", special=True, normalized=False)])
    assert tok.token_to_id("<|im_start|>") == 50257 and tok.token_to_id("<|im_end|>") == 50258
    tok.save(os.path.join(chat_dir, "tokenizer.json"), pretty=False)
    cases = []
    for name, template, eos in (("smollm2", SMOLLM2_TEMPLATE, "<|im_end|>"), ("qwen2.5", QWEN25_TEMPLATE, "<|im_end|>")):
        config = {"chat_template": template, "eos_token": eos, "bos_token": None if name == "qwen2.5" else "<|im_start|>",
                  "pad_token": "<|endoftext|>", "model_max_length": 8192,
                  "added_tokens_decoder": {"50257": {"content": "<|im_start|>", "special": True},
                                           "50258": {"content": "<|im_end|>", "special": True}},
                  "tokenizer_class": "GPT2Tokenizer"}
        os.makedirs(os.path.join(chat_dir, name), exist_ok=True)
        with open(os.path.join(chat_dir, name, "tokenizer_config.json"), "w", encoding="utf-8") as f:
            json.dump(config, f, indent=2, ensure_ascii=False)
        hf_tok = PreTrainedTokenizerFast(tokenizer_file=os.path.join(chat_dir, "tokenizer.json"), chat_template=template,
                                         eos_token=eos)
        for conv_name, messages in CONVERSATIONS.items():
            for gen in (True, False):
                text = hf_tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=gen)
                ids = hf_tok.apply_chat_template(messages, tokenize=True, add_generation_prompt=gen, return_dict=False)
                if isinstance(ids, dict) or hasattr(ids, "keys"):
                    ids = ids["input_ids"]
                cases.append({"template": name, "conversation": conv_name, "messages": messages,
                              "add_generation_prompt": gen, "text": text, "ids": list(ids)})
    with open(os.path.join(chat_dir, "renders.json"), "w", encoding="utf-8") as f:
        json.dump({"transformers": __import__("transformers").__version__, "cases": cases}, f, ensure_ascii=False,
                  separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(cases)} chat renders")


if __name__ == "__main__":
    import sys

    if "--chat" in sys.argv:
        chat_fixtures()
        sys.exit(0)
    torch.set_num_threads(2)
    llama = make_llama(2024)
    save(llama, "tiny-llama", torch.float32)
    fixtures(llama, "tiny-llama")
    qwen2 = make_qwen2(2025)
    save(qwen2, "tiny-qwen2", torch.bfloat16)
    fixtures(qwen2, "tiny-qwen2")
