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
