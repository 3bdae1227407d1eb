// The benchmark workload (issue #5), shared by the browser driver and the
// report; crates/cli/src/bench.rs and bench/hf_generate.py hold the same.
export const PROMPT = 'The best way to learn programming is';
export const NEW_TOKENS = 64;
export const LANES = [
  {},
  { do_sample: true, temperature: 0.7, top_p: 0.9, seed: 0 },
  { do_sample: true, temperature: 1.5, seed: 0 },
  { no_repeat_ngram_size: 3 },
];
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/// One engine's runs (each `{ms, first, tokens}`) as the figures every bench
/// script prints: medians of the time and the first token, and rates.
export const summarize = (rs) => {
  const total = median(rs.map((r) => r.ms));
  const tokens = rs[0].tokens;
  return { tokens, total_ms: total, first_token_ms: median(rs.map((r) => r.first)), tokens_per_s: tokens * 1000 / total, step_ms: total / NEW_TOKENS };
};
