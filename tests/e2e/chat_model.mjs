// A Qwen2 checkpoint built here, small and with one fixed habit: every
// position's hidden state is the same (attention and MLP write nothing), and
// the head sees only `<|im_end|>` in it, so greedy decoding ends the
// assistant's turn at once and a lane stops there exactly when its eos holds
// that token — from the model's generation_config.json, as HF's generate()
// takes it. Its tokenizer is GPT-2's with Qwen's <|im_start|> and <|im_end|>
// (tests/fixtures/chat/tokenizer.json), its template Qwen2.5-Instruct's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';

const CHAT = join(ROOT, 'tests', 'fixtures', 'chat');
export const IM_END = 50258;
const VOCAB = 50259;
const HIDDEN = 8;
const HEADS = 2;
const KV_HEADS = 1;
const HEAD_DIM = HIDDEN / HEADS;
const INTERMEDIATE = 8;

function safetensors(tensors) {
  const header = {};
  let offset = 0;
  for (const [name, { shape, data }] of Object.entries(tensors)) {
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + data.byteLength] };
    offset += data.byteLength;
  }
  let json = Buffer.from(JSON.stringify(header));
  const pad = (8 - (json.length % 8)) % 8;
  json = Buffer.concat([json, Buffer.alloc(pad, 0x20)]);
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([size, json, ...Object.values(tensors).map((t) => Buffer.from(t.data.buffer))]);
}

const filled = (shape, value = 0) => ({ shape, data: new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(value) });

export function chatRepo() {
  const head = filled([VOCAB, HIDDEN]);
  // A logit of 32 against 0 for every other token: <|im_end|> even at
  // temperature 1.5 over the 50,258 tokens tied at 0.
  head.data.fill(4, IM_END * HIDDEN, (IM_END + 1) * HIDDEN);
  const l = 'model.layers.0.';
  const weights = safetensors({
    'model.embed_tokens.weight': filled([VOCAB, HIDDEN], 1),
    [`${l}input_layernorm.weight`]: filled([HIDDEN], 1),
    [`${l}self_attn.q_proj.weight`]: filled([HEADS * HEAD_DIM, HIDDEN]),
    [`${l}self_attn.q_proj.bias`]: filled([HEADS * HEAD_DIM]),
    [`${l}self_attn.k_proj.weight`]: filled([KV_HEADS * HEAD_DIM, HIDDEN]),
    [`${l}self_attn.k_proj.bias`]: filled([KV_HEADS * HEAD_DIM]),
    [`${l}self_attn.v_proj.weight`]: filled([KV_HEADS * HEAD_DIM, HIDDEN]),
    [`${l}self_attn.v_proj.bias`]: filled([KV_HEADS * HEAD_DIM]),
    [`${l}self_attn.o_proj.weight`]: filled([HIDDEN, HEADS * HEAD_DIM]),
    [`${l}post_attention_layernorm.weight`]: filled([HIDDEN], 1),
    [`${l}mlp.gate_proj.weight`]: filled([INTERMEDIATE, HIDDEN]),
    [`${l}mlp.up_proj.weight`]: filled([INTERMEDIATE, HIDDEN]),
    [`${l}mlp.down_proj.weight`]: filled([HIDDEN, INTERMEDIATE]),
    'model.norm.weight': filled([HIDDEN], 1),
    'lm_head.weight': head,
  });
  const config = {
    architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', hidden_act: 'silu',
    hidden_size: HIDDEN, intermediate_size: INTERMEDIATE, num_attention_heads: HEADS,
    num_key_value_heads: KV_HEADS, num_hidden_layers: 1, max_position_embeddings: 256,
    rms_norm_eps: 1e-6, rope_theta: 1000000.0, tie_word_embeddings: false,
    use_sliding_window: false, sliding_window: null, vocab_size: VOCAB,
    bos_token_id: 50256, eos_token_id: 50256,
  };
  return {
    'config.json': Buffer.from(JSON.stringify(config)),
    'model.safetensors': weights,
    'tokenizer.json': readFileSync(join(CHAT, 'tokenizer.json')),
    'tokenizer_config.json': readFileSync(join(CHAT, 'qwen2.5', 'tokenizer_config.json')),
    // Qwen2.5-Instruct's, with this tokenizer's ids: <|im_end|> then <|endoftext|>.
    'generation_config.json': Buffer.from(JSON.stringify({ bos_token_id: 50256, do_sample: true, eos_token_id: [IM_END, 50256], repetition_penalty: 1.05, temperature: 0.7, top_k: 20, top_p: 0.8, transformers_version: '4.37.0' })),
  };
}

/// HF's render of a conversation (tests/fixtures/chat/renders.json).
export function hfRender(template, conversation, addGenerationPrompt) {
  const renders = JSON.parse(readFileSync(join(CHAT, 'renders.json')));
  return renders.cases.find((c) => c.template === template && c.conversation === conversation && c.add_generation_prompt === addGenerationPrompt);
}
