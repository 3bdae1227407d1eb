// What a Chinese reader sees that is English page chrome: visible text,
// less what is not the page's words — the model's output and tokens, the
// lesson's own (English) prose, prompts, identifiers people search for.
// Shared by the Chromium and Firefox suites (Playwright's and Puppeteer's
// `evaluate` take the same arguments).
const NOT_CHROME = [
  '[data-testid="lane-text"]', '.token', '.tok', '.piece', 'code', '.prose', 'q',
  '[data-testid="lesson-title"]', '[data-testid="lesson-step"]', '[data-testid="question-ask"]',
  '.question-choice', '[data-testid="embed-prompt"]', '[data-testid="lane-summary"]',
  '[data-testid="architecture"]', '.chain', '.model-status strong', '[data-testid="lang-picker"]',
  '.lesson-line q', 'option', '.knob-head label', '.plot .tick', '.prompt-row .shown',
  '[data-testid="preset-notice"] > strong',
];
// Identifiers and names that stay as they are in every language.
const NAMES = new Set(['HF', 'KJV', 'GPT', 'JSON', 'CSV', 'SVG', 'Markdown', 'Qwen', 'Llama', 'SmolLM',
  'llama', 'cpp', 'server', 'transformers', 'generate', 'logit', 'logits', 'Logits', 'DoLa', 'XTC', 'DRY', 'mirostat',
  'eos', 'nats', 'KL', 'Home', 'End', 'Esc', 'Space', 'Page', 'Down', 'Up', 'MB', 'kB', 'GB', 'id', 'ids', 'F32', 'BF16', 'F16',
  'LlamaForCausalLM', 'MiniGPT', 'dnnlpy', 'safetensors', 'gguf', 'GGUF', 'config', 'tokenizer', 'vocab', 'merges', 'txt', 'json', 'dist', 'distilgpt2', 'iframe',
  // Knob and sampler names of one word, as the libraries spell them.
  'temperature', 'seed', 'samplers', 'stop', 'penalties', 'dry', 'xtc', 'typ']);

/// English words in the page's chrome, each with where it was (for the failure message).
export async function englishChrome(page) {
  const found = await page.evaluate((skip) => {
    const out = [];
    const where = (el) => {
      const id = el.closest('[data-testid]')?.dataset.testid;
      return `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ')[0] : ''}${id ? ' in ' + id : ''}`;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(skip.join(',')) || !el.checkVisibility({ visibilityProperty: true })) continue;
      // Quoted tokens (“…”) and `identifiers` are the model's and the libraries' words.
      const text = n.textContent.replace(/“[^”]*”/g, ' ').replace(/`[^`]*`/g, ' ');
      for (const w of text.match(/[A-Za-z][A-Za-z0-9_'.-]*/g) || []) {
        if (!/[_0-9.]/.test(w) && w.length > 1) out.push([w.replace(/[.'-]+$/, ''), where(el)]);
      }
    }
    return out;
  }, NOT_CHROME);
  const words = found.filter(([w]) => !NAMES.has(w));
  return [...new Set(words.map(([w, at]) => `${w} (${at})`))].sort();
}
