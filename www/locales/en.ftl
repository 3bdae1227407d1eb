# The page's words in English: the reference catalog. Every key here is in
# every other catalog (a test checks), with the same variables.

# This language's own name, as the language picker lists it.
language-name = English
language-picker = Language
language-picker-title = The page's language (?lang=); remembered on this site

## The page's head

page-title = How does the model pick the next token?
open-full-page = Open the full page ↗
projector-mode = Projector mode
projector-mode-leave = Leave projector mode
projector-mode-title = large type and one thing at a time, for a lecture hall (?present=1)
replay-notice = Replaying the recorded run in { $name }: tables and plots as recorded, no model needed. Run to generate afresh.

## The prompt row

run = Run
run-again = Run again
stop = Stop
reroll = Re-roll
reroll-title = new seeds for every sampling lane, then run
add-lane = + Add a lane
add-lane-title = one more lane, a copy of the last
remove-lane = − Remove lane { $lane }
prompt = Prompt
prompt-label = Prompt:{" "}
lesson = Lesson
shared-randomness = {" "}Shared randomness: sampling lanes draw the same random numbers, so they differ only by their knobs
shared-randomness-title = every sampling lane uses the same random numbers at each step, so lanes differ only by their knobs
shared-seed = {" "}(shared seed { $seed })
seeds-set-aside = The lanes' own seeds differ, and shared randomness sets them aside: lanes that differ only by their seed will write the same text.
negative-prompt = Negative prompt:{" "}
negative-prompt-title = HF's negative_prompt: guidance_scale lanes push away from what the model says after this text (empty: after the prompt's last token alone)
negative-prompt-placeholder = {" "}empty: guidance starts from the prompt's last token
score-text = Score a text:{" "}
score-text-title = teacher forcing: every lane follows this text and shows what its knobs made of each token
score-text-placeholder = {" "}a continuation of the prompt, e.g.  to practice every day
score-button = Score in every lane
score-button-title = each lane shows the probability its configuration gave every token of this text
prompt-cropped = { $tokens ->
    [one] The prompt was longer than the model's context: its first token was left out.
   *[other] The prompt was longer than the model's context: its first { $tokens } tokens were left out.
}

## The lesson player

lesson-steps = Lesson steps
lesson-previous = ← Previous
lesson-next = Next →
lesson-step-of = Step { $step } of { $steps }
lesson-step-title = : { $title }
the-bundled-model = the bundled model
lesson-recorded = This is the step's recorded run, made on { $model }: nothing was downloaded for it. Run to see it live.
lesson-recording-fetching = Fetching the step's recorded run…
lesson-recording-error = The step's recorded run cannot be shown: { $why }
lesson-show-recording = Show the recorded run
lesson-show-recording-title = show the run recorded for this step on { $model }, without running the model
lesson-file = Open a lesson file…
lesson-file-title = a lesson file (.json); you can also drop one here
lesson-from-file = from the file { $name }
lesson-from-site = from { $path }
heading-colon = :{" "}
present-keys = → ← tokens · ↓ ↑ or Page Down / Up lesson steps · Space reveals an answer · Esc back to the lanes

## Share, embed, export

lesson-panel = share, embed, export
share = Copy share link
share-title = a link that restores this prompt, these four lanes and the model, and runs them
embed = Copy embed code
embed-title = an <iframe> for a course page: the four lanes without the editors
export = Export:
export-json = JSON
export-json-title = the whole run with every step's table (the CLI's --json schema); load it back with Replay
export-csv = CSV
export-csv-title = every step's candidate table, one row per candidate
export-markdown = Markdown
export-markdown-title = the four texts side by side
export-plots = Plots image
export-plots-title = the plots as one SVG image
replay-file = Replay a recorded run…
replay-file-title = view a run exported as JSON, without a model
print-handout = Print the lesson as a handout
print-handout-title = the open lesson on paper or as a PDF: every step's prose, prompt, lanes, recorded texts and first tables, its questions and an answer key
print-handout-preparing = Preparing the handout ({ $fetching } to fetch)…
share-link = Share link
embed-code = Embed code

## A lane

lane-heading = Lane { $lane }
lane-edit = Edit
lane-edit-done = Done
lane-veiled = Hidden until you answer the question above.
lane-not-run = not run yet
lane-running = running…
lane-stopped = stopped: { $reason }
lane-tokens = { $tokens ->
    [one] 1 token
   *[other] { $tokens } tokens
}
lane-speed = {" "}· { $speed } tokens/s
lane-score = log p = { $logp } over { $tokens } tokens · perplexity { $perplexity }
lane-score-impossible = This lane's knobs made { $impossible } of the { $tokens } tokens impossible (struck out): the text has probability 0 here.
lane-sample = sample { $sample } · log p { $logp } under its knobs · { $text }
starts-from = {" "}Start from the model's generation_config.json
starts-from-title = HF's generate() puts a model's generation_config.json under every call: what the call leaves unset comes from the file, then from the library. Untick to run this lane from the library's defaults alone, as if the repo had no such file.
starts-from-nothing = nothing this lane leaves unset
starts-from-runs-as = {" "}→ runs as { $mode }
starts-from-runs-as-library-other = {" "}→ runs as { $mode } (from the library's defaults: { $other })
starts-from-runs-as-model-other = {" "}→ runs as { $mode } (from the model's: { $other })
watermark-own-key = this lane's key
watermark-lane-key = lane { $lane }'s key
watermark-yes = watermarked
watermark-no = no watermark
watermark-title = HF's WatermarkDetector: green tokens are the ones the key's green list (seeded by the token before) holds; z counts how far above the expected share they are
watermark-check = Watermark check ({ $key }): { $green } of { $scored } tokens green ({ $share }%, { $expected }% expected) · z = { $z } → { $verdict }
embed-iframe-title = Next-token lab: how a language model picks its next token

## A token in a lane's text (its hover and tap text)

token-step = step { $step } · p = { $p }
token-impossible = step { $step } · impossible under this lane's knobs (model p = { $p })
token-diverge = {" "}· the lanes part ways here
token-watermark-green = {" "}· watermark: green
token-watermark-red = {" "}· watermark: red
token-split = {" "}· part of “{ $char }”, bytes { $bytes }, over tokens { $tokens }
token-split-cut = {" "}· bytes { $bytes }: the text ends before they make a character
list-separator = ,{" "}
lane-list = { $count ->
    [one] lane { $last }
   *[other] lanes { $init } and { $last }
}

## The logit lens (compare view)

lens-toggle = Logit lens
lens-toggle-title = What each layer would have predicted at this step: the final norm and the output head applied to every layer's output. Showing it over a finished run runs it again with the same seeds to record every layer.
lens-heading = Logit lens: what each layer would have said
lens-explain = Each row stops the model after one layer and applies its final norm and output head. The last row is the model's own output — the step's raw probabilities. ★ marks the layer from which the chosen token stays the likeliest.
lens-caption = Lane { $lane }: the likeliest tokens after each layer, and the chosen token's probability and rank there.
lens-col-layer = Layer
lens-col-top = Likeliest tokens
lens-col-chosen = “{ $token }”
lens-layer-out = { $layer } out
lens-chosen-rank = #{ $rank }
lens-settles-title = From here on, the chosen token is the likeliest.
lens-settled-first = “{ $token }” is the likeliest from the first layer on.
lens-settled = “{ $token }” becomes the likeliest after layer { $layer } of { $layers } and stays so.
lens-not-top = “{ $token }” is not the model's likeliest token here: it was drawn, or a knob chose it.
lens-many-rows = This lane weighs several sequences at each step (beams, contrastive candidates, several samples); the lens follows lanes with one.
lens-waiting = Recording every layer: the run is on its way.
lens-not-recorded = This run was recorded without the lens; run it again to see every layer.

## One step in every lane (the compare view) and the tables

compare-label = step { $step } in every lane
compare-heading = Step { $step } of { $steps } in every lane
compare-keys = ← → move the step in every lane · Home / End jump · Esc closes
previous-step = previous step
next-step = next step
close = close
compare-other-text = { $count ->
    [one] { $lanes } has a different text before this step: each column is its own lane's context.
   *[other] { $lanes } have a different text before this step: each column is its own lane's context.
}
compare-beams = { $count ->
    [one] { $lanes } is beam search: its step is the best continuation of several beams, not one path.
   *[other] { $lanes } are beam search: its step is the best continuation of several beams, not one path.
}
how-forced = given (scoring a text)
how-draw = seeded draw, u = { $u }
how-beam = best beam continuation
how-contrastive = best contrastive score
how-greedy = greedy: most probable
step-picked = { $how } · rank { $rank } · p { $p0 } → { $p1 }
step-spread = { $kept } kept · entropy { $e0 } → { $e1 } · nucleus 50/90/95%: { $n50 }/{ $n90 }/{ $n95 }
step-summary-title = Picked: { $how }. Rank { $rank } by the model; p { $p0 } before the knobs, { $p1 } after; { $kept } tokens kept; entropy { $e0 } → { $e1 } nats; the top-p nucleus holds { $n50 } tokens at 50%, { $n90 } at 90%, { $n95 } at 95%.
not-in-table = not in this lane's table
removed = removed
chosen-sr = {" "}(chosen)
branch = branch
branch-title = every lane continues from here with “{ $token }”
branch-label = branch with “{ $token }”
branch-column-title = branch: every lane continues from here with this token
at-step = {" "}· step { $step }
chose = {" "}· chose “{ $token }”
chose-part-of = {" "}(part of “{ $char }”: { $bytes })
chose-dangling = {" "}(bytes { $bytes }: the text ends before they make a character)
sorted = sorted
sort = sort
sorted-title = the rows are in this lane's order
sort-title = sort the rows by this lane's probabilities
sort-sr = {" "}rows by lane { $lane }
compare-caption = Lane { $lane }: each token's probability before and after its knobs.
what-if = What if? Try the knobs on this step
stopped-after = stopped after { $tokens } tokens: { $reason }
running-so-far = running… { $tokens } tokens so far
col-token = token
col-logit = logit
col-p-model-after = p model → after knobs
col-p = p
col-group = group
col-from-beam = from beam
col-sum-log-p = sum log p
col-diversity-penalty = diversity penalty
col-constraints-met = constraints met
col-fate = fate
col-max-cosine = max cosine
col-score = score
met-of = { $met } of { $all }
beam-fate-pad = group done: pad
beam-fate-pushed = kept: moves a constraint on
beam-fate-finished = finished
beam-fate-kept = kept
beam-fate-dropped = dropped
beams-title = Beam continuations this step
beams-title-grouped = Beam continuations this step, group by group (later groups pay for tokens earlier groups just chose)
beams-title-constrained = Beam continuations this step: the best of each level of progress on the forced words go on first
contrastive-title = Contrastive candidates: (1 − α)·p − α·max cosine
dola-only = its only candidate
dola-layer-js = layer { $layer }: { $js }
dola-furthest = the furthest from the final layer by Jensen–Shannon divergence ({ $each })
dola-step = DoLa: contrasted with layer { $layer }, { $why }. The knobs see log p(final layer) − log p(layer { $layer }) on the { $plausible } tokens within 10% of the final layer's top probability; the rest are dropped (the funnel's dola_layers stage). The logit column is the final layer's own.
funnel-label = filter funnel
funnel-kept = {" "}{ $kept } kept
funnel-removed = {" "}· removed { $mass }

## What each knob does (the knob names stay as the libraries spell them)

hf-help-max_new_tokens = how many tokens to generate at most
hf-help-max_length = prompt plus new tokens, at most
hf-help-min_new_tokens = no eos before this many new tokens
hf-help-min_length = no eos before prompt plus new tokens reach this length
hf-help-do_sample = draw the next token at random instead of taking the best
hf-help-temperature = divides every logit: below 1 sharpens, above 1 flattens
hf-help-top_k = keeps the k likeliest tokens
hf-help-top_p = keeps the fewest likeliest tokens whose mass reaches p
hf-help-min_p = keeps tokens at least min_p × the top probability
hf-help-typical_p = keeps the tokens closest to the entropy until their mass reaches p
hf-help-epsilon_cutoff = removes tokens below this probability
hf-help-eta_cutoff = removes tokens below an entropy-scaled threshold
hf-help-repetition_penalty = divides a seen token's positive logit (multiplies a negative one)
hf-help-no_repeat_ngram_size = forbids any n-gram of this size from occurring twice
hf-help-num_beams = keeps this many hypotheses and returns the best total
hf-help-length_penalty = beam scores divide by length to this power: > 0 favours long
hf-help-early_stopping = when beam search stops: true, false (heuristic) or "never"
hf-help-num_return_sequences = how many finished beams to return
hf-help-penalty_alpha = contrastive search: weight of the degeneration penalty
hf-help-eos_token_id = token id(s) that end the text
hf-help-stop_strings = text that ends generation once it appears
hf-help-seed = the random stream a sampling lane draws from
hf-help-frequency_penalty = subtracts this × a token's count so far (OpenAI-style)
hf-help-presence_penalty = subtracts this once from every token seen (OpenAI-style)
hf-help-top_h = keeps likely tokens while their entropy stays within top_h × the whole's
hf-help-bad_words_ids = token sequences never to generate: [[ids], …]
hf-help-sequence_bias = adds a bias to a token sequence's last token: [[[ids], bias], …]
hf-help-suppress_tokens = token ids never generated
hf-help-begin_suppress_tokens = token ids that cannot be the first generated token
hf-help-forced_bos_token_id = the first token after a one-token prompt (an empty prompt)
hf-help-forced_eos_token_id = token id(s) forced as the last token max_length allows
hf-help-exponential_decay_length_penalty = [start, factor]: after start new tokens, eos grows by factor per token
hf-help-renormalize_logits = log-softmax after every knob, so beam scores stay log-probs
hf-help-remove_invalid_values = NaN becomes 0 and ±inf the largest finite numbers
hf-help-watermarking_config = {"{"}"bias": 2{"}"}: seeded green tokens get a bias a key can detect
hf-help-guidance_scale = pushes log p away from a pass without the prompt (or a negative one)
hf-help-num_beam_groups = splits the beams into groups that search one after another
hf-help-diversity_penalty = a group's log p loses this × the times earlier groups just chose the token
hf-help-dola_layers = "low", "high" or [layers]: scores log p(final) − log p(an earlier layer)
hf-help-force_words_ids = [[ids], [[ids], [ids]]]: phrases (or choices of phrases) the beams must include

llama-help-temperature = divides the logits — last in llama.cpp's default chain, after the filters; 0 or less keeps only the best token (greedy)
llama-help-top_k = keeps the k most likely tokens (0 = off); 40 by default here
llama-help-top_p = keeps the smallest set of likely tokens whose probability reaches p, at least min_keep; 0.95 by default here
llama-help-min_p = keeps tokens at least p times as likely as the best one; 0.05 by default here
llama-help-typical_p = locally typical sampling: tokens whose surprise is near the entropy (1 = off)
llama-help-top_n_sigma = keeps tokens whose logit is within n standard deviations of the best (negative = off)
llama-help-xtc_probability = exclude top choices: how often it removes every likely token but the least likely of them (0 = off)
llama-help-xtc_threshold = XTC: what counts as a likely token (above 0.5 turns XTC off)
llama-help-dynatemp_range = dynamic temperature: the temperature moves within ± this range with the candidates' entropy (0 = off)
llama-help-dynatemp_exponent = how the entropy maps to the dynamic temperature
llama-help-min_keep = top_p, min_p, typical and XTC keep at least this many tokens
llama-help-samplers = the chain's order, by llama.cpp's names (penalties, dry, top_n_sigma, top_k, typ_p, top_p, min_p, xtc, temperature, adaptive_p)
llama-help-seed = the seed of the chain's draws (dist, XTC, mirostat; -1 = random)
llama-help-repeat_penalty = divides (or multiplies, if negative) the logit of every token among the last repeat_last_n (1 = off)
llama-help-repeat_last_n = how many recent tokens the penalties see, the prompt's included (64; 0 = off; -1 = the whole context)
llama-help-presence_penalty = subtracted once from every token among the last repeat_last_n
llama-help-frequency_penalty = subtracted per occurrence among the last repeat_last_n
llama-help-dry_multiplier = DRY: penalises the token that would extend a repeated sequence, multiplier · base^(length − allowed) (0 = off)
llama-help-dry_base = DRY: how fast the penalty grows with the repeat's length
llama-help-dry_allowed_length = DRY: repeats up to this long go unpunished
llama-help-dry_penalty_last_n = DRY: how far back it looks (64; 0 = off; -1 = the whole context)
llama-help-dry_sequence_breakers = DRY: strings that end a repeat's look-back (newline, colon, quote, asterisk)
llama-help-mirostat = 1 or 2: mirostat replaces the chain after temperature and steers each pick's surprise to mirostat_tau (0 = off)
llama-help-mirostat_tau = mirostat: the target surprise, in bits
llama-help-mirostat_eta = mirostat: how fast it corrects towards the target
llama-help-adaptive_target = adaptive-p (listed in samplers): picks tokens near this probability (negative = off)
llama-help-adaptive_decay = adaptive-p: how long its memory of recent picks is
llama-help-n_predict = how many tokens to generate (-1 = until the context is full)
llama-help-stop = stop when the text contains one of these strings
llama-help-ignore_eos = bans the end-of-text token, so the lane runs to n_predict
llama-help-logit_bias = [[token, bias], ...] or {"{"}"token": bias{"}"}; a token is an id or a text, false bans it
llama-help-semantics = whose knobs the lane takes: "llama.cpp" here

## The knobs' headings and hover text

hf-group-length = length
hf-group-strategy = strategy
hf-group-logits_manipulation = logits manipulation
hf-group-special_tokens = special tokens
hf-group-watermark = watermark
hf-group-guidance = guidance
llama-group-sampler_chain = sampler chain
llama-group-penalties = penalties
llama-group-mirostat = mirostat, adaptive-p
llama-group-length = length, stop, tokens
knob-title = { $knob } ({ $group }): { $help }
knob-takes = {" "}(takes { $range })
llama-knob-title = { $knob } (llama-server): { $help }
llama-knob-takes = {" "}(takes { $min } to { $max })
range-any = any number

## A lane's knobs (the editor)

ecosystem = ecosystem
ecosystem-title = Whose knobs this lane takes: HF transformers' generate() or llama.cpp's sampler chain (llama-server's names and defaults). The same names mean different things in each.
mode = mode
mode-greedy = greedy
mode-sample = sample
mode-beam = beam search
mode-beam-sample = beam sampling
mode-group-beam = diverse beam search
mode-constrained-beam = constrained beam search
mode-contrastive = contrastive
token-rules = Token rules, watermark, guidance: bad words, biases, suppressed and forced tokens
chain = chain:{" "}
llama-fields = llama-server /completion fields
ecosystem-tutorial = seed 004's loop
tutorial-loop = last block_size ids → temperature → top_k → top_p (keeps the first token past p) → softmax → draw; argmax when do_sample is false. No stop at end of text.
tutorial-fields = generate() arguments
tutorial-help-max_new_tokens = How many tokens the loop adds. It never stops earlier: seed 004's loop has no end-of-text stop.
tutorial-help-temperature = The logits are divided by it before the filters. Must be positive, even when do_sample is false.
tutorial-help-top_k = Keeps the logits not below the k-th largest (ties stay). Empty, 0 or less: no filter.
tutorial-help-top_p = Keeps the likeliest tokens until their sum passes p, and the first one past it. Empty: no filter; otherwise in (0, 1].
tutorial-help-do_sample = true: draw from the filtered softmax. false: argmax of the raw logits.
tutorial-help-block_size = The window: each step the model sees only the last block_size ids. Empty: the model's context.
tutorial-help-seed = The draw's seed here (this lab's draw, not torch's multinomial: the same seed repeats here, not in Python).

## The what-if sandbox

sandbox-title = What if? One distribution, your knobs
sandbox-intro = Type a distribution's logits — the lesson's five to start — or open a step of a run with “What if?” under its table, and move a knob: the table, the funnel and the entropy follow as you type, computed by the lanes' own code in HF's order. An empty box is off (top_k too, though HF samples with 50 unless told).
sandbox-caption = Each token's probability before and after the knobs, highest after the knobs first.
col-removed-by = removed by
lanes-pick-sr = {" "}(the lane's pick)
sandbox-lanes-pick = the lane's pick
sandbox-likeliest = likeliest after the knobs
sandbox-pick = {" "}· { $what }: “{ $token }” at { $p }
sandbox-kept = { $kept } of { $total } tokens kept
sandbox-entropy = {" "}· entropy { $e0 } → { $e1 } nats
sandbox-computing = computing…
sandbox-answered = answered in { $ms } ms
sandbox-lane-step = Lane { $lane } · step { $step }
sandbox-from-beam = : beam search's row at this step — the model's whole next-token distribution after the prompt and the { $tokens } tokens of the beam that the best continuation extends ({ $context } tokens of context), starting from the lane's own knobs; the best continuation is marked ◀. As in HF's beam search the knobs act on log-probabilities (a repetition penalty multiplies every one of them), and each warper leaves at least one token more than the lane has end-of-text ids, as sampling beams do, so that a beam can go on past an end of text.{" "}
sandbox-from-lane = : the model's whole next-token distribution after the prompt and the lane's first { $tokens } tokens ({ $context } tokens of context), starting from the lane's own knobs; the lane's pick is marked ◀.{" "}
sandbox-guided = This lane used guidance_scale, which needs a second, unconditional pass the sandbox does not run: the table here is the model's own row before guidance, so it differs from the lane's.
sandbox-llama = This lane ran llama.cpp's sampler chain. The sandbox starts from its temperature, top_k, top_p, min_p and typical_p but applies them as HF does, temperature first and without llama.cpp's penalties, so its table can differ from the lane's.
sandbox-dola = This lane used DoLa, which contrasts the final layer with an earlier one the sandbox does not read: the table here is the final layer's own row, before the contrast, so it differs from the lane's.
sandbox-back = Back to typed logits
sandbox-logits = logits (tokens a, b, c, …)
off = off
sandbox-order = Order: HF applies these in one fixed order — { $order } — and offers no way to change it; llama.cpp's sampler chain can be reordered (its `samplers` list).
sandbox-use = Use these knobs in

## The model line and panel

model-bundled = bundled KJV-GPT-2 (offline)
model-hub-repo = { $repo } (model hub)
model-folder = { $path } (hosted with this page)
model-local-files = local files ({ $names })
memory-beyond-wasm = These weights are { $size } and need about { $need } of WebAssembly memory to run{ $cache }: more than the 4 GB a browser tab's WebAssembly can address, so no device runs them here. Pick a smaller model, or a quantized one.
memory-warning = These weights are { $size } and need about { $need } of memory to run{ $cache }, the download included; this device reports { $device } in all, so the tab may run out of memory. The bundled offline model needs about 30 MB.
loaded-of = {" "}{ $loaded } of { $total }
loading-model = Loading { $name }: { $file }{" "}
file-downloaded = { $file } downloaded
model-heads = { $heads } heads
model-heads-kv = { $heads } heads ({ $kv } key/value)
model-facts = {" "}· { $params } M parameters · { $layers } layers · { $heads } · { $width } wide · { $positions } positions · { $dtype } · { $size } · loaded in { $seconds } s ·{" "}
threads = { $threads ->
    [one] 1 thread
   *[other] { $threads } threads
}
architecture-hint = The model's class in HF transformers, from its config.json: GPT2LMHeadModel (GPT-2, distilgpt2), LlamaForCausalLM (SmolLM2) or Qwen2ForCausalLM (Qwen2.5).
help-about = What { $about } does
threads-hint = The engine uses several threads only where the page is cross-origin isolated (served with Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers, as scripts/serve.mjs does). Results are identical either way; only the speed differs.
one-thread-not-isolated = single-threaded worker: this page is not cross-origin isolated
one-thread-no-shared-array-buffer = single-threaded worker: this browser gives pages no SharedArrayBuffer, which threads need
one-thread-no-shared-wasm-memory = single-threaded worker: this browser cannot share WebAssembly memory between threads
one-thread-threaded-failed = single-threaded worker: the threaded one did not start here
model-defaults-before = This model's generation_config.json sets{" "}
model-defaults-after = . HF's generate() starts from these unless a call says otherwise, and so do the lanes here; each lane says what it takes from them and can start from the library's defaults instead.
confirm-ask = This link asks for the model `{ $repo }` from the model hub. Nothing has been downloaded.{" "}
confirm-asking = Asking how large it is…{" "}
confirm-ask-folder = This link asks for the model folder `{ $repo }` hosted with this page. Nothing has been downloaded.{" "}
confirm-cached = Its weights ({ $size }) are already in this browser's cache: nothing to download.{" "}
confirm-size = Its weights are { $size } to download.{" "}
confirm-unknown = The hub did not say how large it is; the size shows once the download starts (GPT-2-sized models are 250–550 MB).{" "}
confirm-download = Download { $repo }
confirm-bundled = Use the bundled offline model
confirm-ask-typed = `{ $repo }` from the model hub: nothing has been downloaded yet.{" "}
gguf-choose = This repo holds llama.cpp files, one per quantization. Fewer bits per weight download less and run faster; their probabilities move further from full precision. Choose one:
gguf-no-tag = (no type in its name)
gguf-cached = in this browser
gguf-not-here = a llama.cpp type this page does not run
gguf-split = { $count } parts of split files are not listed: this page reads single .gguf files.
gguf-choose-first = Choose a file to see what it downloads.{" "}
confirm-keep = Keep the model in use
keep-previous-model = Go on with { $model }
live-asking = asking how large the model is…
live-cached = the model is already in this browser: nothing to download
live-size = downloads { $size }
live-unknown = the download's size shows once it starts
live-offer = Showing the lesson's recorded runs: nothing was downloaded.{" "}
run-live = Run live
worker-starting = Starting the model worker…
model-failed = Could not load the model: { $message }
model-failed-file = Could not load the model ({ $file }): { $message }
change-model = Change model
bundled-model-button = Bundled offline model
hub-repo-label = model hub repo
load-hub = Load from the model hub
local-files = Local files:{" "}
files-hint = GPT-2, Llama (SmolLM2) and Qwen2 (Qwen2.5) checkpoints: config.json, model.safetensors (or its shards), tokenizer.json (or vocab.json with merges.txt); or llama.cpp's one .gguf file (F32, F16, Q8_0, Q4_0, Q4_K_M, Q5_K_M, Q6_K…), which carries its own tokenizer (a tokenizer.json beside it is used instead); drop a downloaded repo's folder here or pick the files. distilgpt2 is about 350 MB; it is cached by the browser after the first download. A MiniGPT from seed 004: its minigpt.pt beside the tokenizer.json it was trained with (and its config.json, if it has one).
eight-bit = Keep weights in 8 bits (Q8_0)
eight-bit-hint = A full-precision model is quantized to Q8_0 blocks as it loads, as llama.cpp's Q8_0 files are: about a third of an F32 model's memory (half of a 16-bit one's), for a school's tablets and Chromebooks. Each step reads fewer bytes, so it usually runs faster too, but its probabilities differ slightly from full precision, so runs no longer match HF transformers exactly. A model in use loads again; a .gguf file keeps its own types.
minigpt-heads = Heads of a MiniGPT picked without config.json:
minigpt-heads-hint = A minigpt.pt holds every size of the model but its number of attention heads (num_heads). Without a config.json saying it, this count is used: the tutorial's MiniGPT has 4. It must divide the width (embed_dim); a wrong count that divides it loads but predicts nonsense, so use the num_heads you trained with.
save-model-folder = Save as a model folder
save-model-folder-hint = Downloads a zip holding config.json (with the head count), model.safetensors and tokenizer.json: unzip it into the models/ folder beside the page, run node scripts/index-models.mjs there, and the class opens it with ?model=models/<name>/.
worker-slow = The model worker has not started after 20 seconds. On a slow connection it may still come; if it seems stuck, restart it (it then runs on one thread).
restart-worker = Restart the model worker

## A lesson's questions

questions = Questions
question-n = Question { $n }:{" "}
ask-next = Which token comes next in lane { $lane }?
ask-token-n = Which token does lane { $lane } write as its token { $step }?
question-waiting = Run the step, or show its recorded run, to see the candidates. The lanes stay hidden until you answer.
question-type-it = …or type it:{" "}
question-answer = Answer
question-show = Show the answer
question-pending = Reading your text with the model's tokenizer…
place-removed = removed by { $by }
place-outside = below its top { $shown }
place-no-step = no such step
answer-lane-wrote = Lane { $lane } wrote { $token }.
answer-run-to-see = Run the step to see what lane { $lane } writes.
answer-lane = The answer is lane { $lane }.
answer-option = The answer is “{ $option }”.
yours-token = You picked { $token }.
yours-typed = You typed “{ $typed }”, read as the token { $token }.
yours-unmatched = You typed “{ $typed }”, which is none of the step's candidates.
yours-lane = You picked lane { $lane }.
yours-option = You picked “{ $option }”.
yours-skipped = You looked without guessing.
verdict-shown = Shown
verdict-right = Right
verdict-wrong = Not this time
verdict = { $verdict }.{" "}
reveal-caption = Your token in each lane at this step
reveal-col-lane = Lane
reveal-col-wrote = It wrote
reveal-col-rank = Your token's rank
reveal-col-after = after its knobs
reveal-col-before = before
quiz-score = Score: { $right } right of { $answered } answered ({ $total } questions in this lesson; kept in this page only).{" "}
quiz-reset = Start the questions again

## The printed handout

handout-settings = Settings
handout-text = Text
handout-not-recorded = (not recorded: run it on the page)
handout-first-token = Lane { $lane }: the first token
handout-col-model = model
handout-col-knobs = knobs
handout-answer-not-recorded = (not recorded: run the step to see it)
handout-meta = { $steps } steps · model: { $model } · recorded runs, as the page shows them · Next-token lab
handout-step = Step { $step }
handout-recording-failed = The recorded run could not be read: { $why }
handout-key = Answer key
handout-key-line = Step { $step }, question { $question }: { $answer }

## What a lesson's own code printed

printed-same = ✓ the same here
printed-same-draw = the same here — this draw agreed
printed-differs = ✗ parts at character { $at }: here “{ $here }…”
printed-other-draw = a different draw here, as expected
printed-other-model = {" "}— this run was on another model: load { $model } to compare
printed-not-run = {" "}— run this lesson unchanged on { $model } to compare
printed-tally = {" "}— { $same } of { $exact } exact lanes match
printed-summary = What “{ $source }” printed on { $model }
printed-why = On { $model } a lane without randomness (greedy, beam, contrastive, top_k 1) must write exactly the lesson's text. A sampled lane cannot: torch draws its own random numbers, so a seed here picks a different draw from the same distribution.
printed-lane-exact = Lane { $lane } · exact
printed-lane-sampled = Lane { $lane } · sampled

## Every step (the grid)

grid-label = every step of every lane
grid-heading = Every step
grid-col-step = step
grid-cell-at = lane { $lane } step { $step }:{" "}
grid-cell-p = , p { $p }
grid-cell-rank = , model rank { $rank }

## The plots

plots-label = per-step plots
plots-hint = Hover or click a point to open that step's table.
plot-entropy = entropy after the knobs (nats)
plot-chosen = probability of the chosen token
plot-nucleus = tokens for 90% of the model's mass
plot-kept = tokens kept by the knobs
plot-point = lane { $lane } · step { $step } · { $token } · { $value }
plot-step = step { $step }

## Where the lanes part ways

diverge-heading = ◆ The lanes first part ways at step { $step }:
diverge-lane-chose = Lane { $lane } chose “{ $token }”
diverge-reasons = : { $reasons }.
reason-separator = ;{" "}
why-knobs-removed = { $kept ->
    [one] the knobs ({ $knobs }) removed { $theirs }: this lane kept only { $kept } token
   *[other] the knobs ({ $knobs }) removed { $theirs }: this lane kept only { $kept } tokens
}
why-below-table = { $theirs } was not even among this lane's top { $shown } (p below { $floor }); { $mine } { $pick ->
    [given] was given
    [drawn] was drawn
   *[highest] scored highest
} at { $p_mine }
why-removed-by = `{ $knob }` removed { $theirs } (model p { $raw })
why-impossible = { $theirs } was impossible here
why-given = { $mine } was given (scoring a text)
why-drawn = both were possible ({ $theirs } { $p_theirs } vs { $mine } { $p_mine }); the random draw picked { $mine }
why-llama-drawn = both survived llama.cpp's chain ({ $theirs } { $p_theirs } vs { $mine } { $p_mine }); its seeded draw picked { $mine }
why-degeneration = the degeneration penalty favoured { $mine } over { $theirs }
why-lowered = { $knobs } lowered { $theirs } below { $mine } (model p { $p_theirs } vs { $p_mine })
why-greedy = greedy takes the highest score: { $mine } { $p_mine } vs { $theirs } { $p_theirs }

## The token inspector

inspector-title = The prompt as the model sees it{" "}
inspector-intro = A model reads tokens, not letters. Under each token: the model's five likeliest next tokens at that position, and the rank and probability of the token that really came next. Training scores every one of these rows; generation uses only the last.
prompt-reading = reading the prompt…
prompt-no-model = the tokens show once a model is loaded
prompt-cut = {" "}({ $cut } more cut from the start: the context is full)
prompt-token-count = { $tokens } tokens of { $positions } positions
prompt-chars-per-token = {" "}· { $chars } characters, { $per } per token
prompt-chip-title = token { $n } · id { $id } · bytes { $bytes }
prompt-chip-part-of = {" "}· part of “{ $char }” ({ $bytes })
prompt-next = next: #{ $rank } · { $p }
prompt-next-last = next: generation starts here
guesses-label = the model's five likeliest next tokens
lookup-label = Text → ids
lookup-placeholder = . (a full stop)
use-in = { $knob } in
use-in-force-words = must include (force_words_ids) in

## Models to pick, models kept

catalog-label = models to load from the hub
catalog-facts = { $architecture } · { $params } M parameters · { $download } download ({ $dtype }) · needs about { $memory } of memory
catalog-load-label = Load { $repo }
catalog-in-use = In use
catalog-load = Load
catalog-default = default
instruct-hint = Tuned to follow a conversation: its generation_config.json samples (HF's generate() does too unless told otherwise) and it stops at the end of its turn.
cache-title = Cached models
cache-looking = Looking…
cache-none = This page cannot keep models here (the browser offers no storage to it), so each visit downloads again.
cache-size = {" "}· { $size } in { $files } files
cache-in-use = {" "}· in use (it stays loaded until you switch)
cache-forget-label = Forget { $name }
cache-forget = Forget
cache-empty = No models are kept in this browser.
cache-quota = This site uses { $used } of the { $quota } the browser allows it.

## The prompt as a conversation

chat-hint = An Instruct model was trained on conversations laid out by its chat template, with special tokens around each turn. This renders yours exactly as HF's apply_chat_template does and puts the text in the prompt box; the token inspector shows its special tokens, and the lanes stop at the end of the assistant's turn (the model's generation_config.json names that token).
chat-title = Write the prompt as a conversation (this model's chat template)
chat-role-label = turn { $turn } role
chat-text-label = turn { $turn } text
chat-remove-label = remove turn { $turn }
chat-add = Add a turn
chat-generation-prompt = {" "}Open the assistant's turn (add_generation_prompt)
chat-render = Put it in the prompt

## "Does nothing here" notes on a lane's knobs

note-from-file = {" "}(`{ $knob }` comes from the model's generation_config.json)
note-does-not-sample = `{ $knob }` does nothing: { $why ->
    [beam] beam search does not sample
    [contrastive] contrastive search does not sample
   *[greedy] greedy decoding does not sample (do_sample=false)
}
note-seed-unused = `seed` does nothing: nothing in this lane is random
note-top-k-50 = `top_k=50` is active: it is HF's default even when you do not set it; set `top_k` to 0 to sample from the whole distribution
note-beam-only = `{ $knob }` only matters for beam search (`num_beams` > 1)
note-dola-wrong-mode = `dola_layers` does nothing here: DoLa works with greedy decoding and sampling, not { $mode } (HF ignores it too)
note-dola-repeats = DoLa tends to repeat itself: HF recommends `repetition_penalty` ≥ 1.2 with `dola_layers`
note-needs-beams = `{ $knob }` does nothing without beams: diverse beam search needs `num_beams` > 1
note-penalty-alpha = `penalty_alpha` does nothing: contrastive search needs `top_k` > 1, `do_sample=false` and `num_beams=1`
note-repetition-rewarded = `repetition_penalty` below 1 rewards repetition instead of penalising it
note-no-repeat-one = `no_repeat_ngram_size=1` forbids every token that already appeared, prompt included
note-min-new-tokens-no-eos = `min_new_tokens` does nothing without an eos token
note-decay-no-eos = `exponential_decay_length_penalty` does nothing without an eos token to boost
note-forced-bos = `forced_bos_token_id` acts only after a one-token prompt (an empty prompt is bos alone); after a longer prompt it does nothing
note-begin-suppress = `begin_suppress_tokens` acts at the first generated token only; `suppress_tokens` acts at every step
note-renormalize = `renormalize_logits` changes no choice here: softmax and argmax ignore a shift; it matters where scores are summed, in beam search
note-remove-invalid = `remove_invalid_values` only matters if the model outputs NaN or ±inf; it also turns other knobs' -inf into the lowest finite number (probability still 0, but 'kept' counts it)
note-removed-nothing = `{ $knob }` removed nothing in this run
note-earlier-cut-more = {" "}— `{ $knob }` had already cut more
note-changed-no-choice = `{ $knob }` changed no choice in this run: every token was the model's own first choice
note-mirostat-alone = with mirostat, llama.cpp builds no other samplers: top_k, top_p, min_p, the penalties, DRY and `samplers` do nothing — only logit_bias, temperature and mirostat act
note-temperature-after = temperature acts after { $filters } here, on the tokens they kept; HF divides the logits first, so the same numbers keep different tokens there
note-temperature-not-listed = `temperature` is not in `samplers`: it does nothing
note-penalties-off = repeat_last_n 0 turns the penalties off
note-penalty-window = the penalties here count the last { $last } tokens (repeat_last_n), the prompt's included; HF's repetition_penalty sees the whole text
note-penalty-window-context = the penalties here count the whole context (repeat_last_n), the prompt's included; HF's repetition_penalty sees the whole text
note-llama-defaults = llama-server samples with top_k 40, top_p 0.95 and min_p 0.05 unless told otherwise; HF's defaults are top_k 50 alone
note-xtc-off = an xtc_threshold above 0.5 turns XTC off
note-dry-base = llama-server replaces a dry_base below 1 with 1.75
note-random-seed = seed -1 draws a new random seed every run, as in llama.cpp; the lane shows the seed drawn — give a seed to repeat a run or compare with a llama.cpp run
note-until-context-full = n_predict -1 runs until the context is full — set a number of tokens
lane-button = lane { $lane }
stage-model = model
mode-name = { $mode ->
    [greedy] greedy
    [sample] sample
    [beam] beam
    [beam_sample] beam_sample
    [group_beam] group_beam
    [constrained_beam] constrained_beam
    [contrastive] contrastive
    [llama_cpp] llama_cpp
   *[other] { $mode }
}
catalog-instruct = instruct
mode-llama-cpp = llama.cpp
mode-tutorial = seed 004's loop

## Errors: a lane's knobs refused (English is HF's and llama-server's own words)

err-config-json = config is not valid JSON: { $detail }
err-tutorial = tutorial lane: `{ $field }`: { $detail }
err-config-not-object = config must be a JSON object of HF generation_config fields
err-unknown-field = unknown generation config field `{ $field }`{ $hint }
err-did-you-mean = ; did you mean `{ $name }`?
err-unsupported = `{ $field }` is a knob of HF generate() that this lab does not apply ({ $why }); remove it — a lane that kept it would not decode as HF does
err-unsupported-why = { $field ->
    [constraints] it holds Python `Constraint` objects; give the words as `force_words_ids`
    [token_healing] token healing is not implemented
    [max_time] a wall-clock limit would make runs unrepeatable
    [encoder_repetition_penalty] it acts on an encoder's input, and GPT-2 has no encoder
    [encoder_no_repeat_ngram_size] it acts on an encoder's input, and GPT-2 has no encoder
    [use_mtp] multi-token prediction is not implemented
   *[other] speculative decoding is not implemented
}
err-bad-value = `{ $knob }`: { $detail }
err-not-a-number = `{ $knob }`: `{ $text }` is not a number
err-out-of-range = { $knob ->
    [max_new_tokens] `max_new_tokens` must be greater than 0, but is { $value }
    [max_length] `max_length` must be a non-negative integer, but is { $value }
    [min_new_tokens] `min_new_tokens` must be a non-negative integer, but is { $value }
    [min_length] `min_length` must be a non-negative integer, but is { $value }
    [temperature] `temperature` must not be negative, but is { $value }
    [top_k] `top_k` has to be a strictly positive integer, but is { $value }
    [top_p] `top_p` has to be a float > 0 and <= 1, but is { $value }
    [min_p] `min_p` has to be a float in the [0, 1] interval, but is { $value }
    [typical_p] `typical_p` has to be a float > 0 and <= 1, but is { $value }
    [epsilon_cutoff] `epsilon_cutoff` has to be a float > 0 and < 1, but is { $value }
    [eta_cutoff] `eta_cutoff` has to be a float > 0 and < 1, but is { $value }
    [repetition_penalty] `penalty` has to be a strictly positive float, but is { $value }
    [no_repeat_ngram_size] `no_repeat_ngram_size` must be a non-negative integer, but is { $value }
    [num_beams] `num_beams` has to be a strictly positive integer, but is { $value }
    [num_return_sequences] `num_return_sequences` has to be a strictly positive integer, but is { $value }
    [penalty_alpha] `penalty_alpha` has to be a float in the [0, 1] interval, but is { $value }
    [top_h] `top_h` must be in the range (0, 1], but is { $value }
    [guidance_scale] `guidance_scale` must be a finite number, but is { $value }
    [num_beam_groups] `num_beam_groups` has to be a strictly positive integer, but is { $value }
    [diversity_penalty] `diversity_penalty` should be a float larger than 0.0, but is { $value }
   *[other] `{ $knob }` must be { $range }, but is { $value }
}
range-finite = any number
err-not-finite = `{ $knob }` must be a finite number, but is { $value }
err-cannot-be = `{ $knob }` cannot be { $value }
err-force-words-shape = `force_words_ids` has to either be a `list[list[list[int]]]` or `list[list[int]]` of positive integers
err-force-words-subset = Each list in `nested_token_ids` can't be a complete subset of another list, but is { $phrases }.
err-watermark-ratio = `watermarking_config.greenlist_ratio` has to be between 0 and 1, exclusively, but is { $value }
err-watermark-bias = `watermarking_config.bias` must be a finite number, but is { $value }
err-watermark-context = `watermarking_config.context_width` must be at least 1, but is { $value }
err-bad-semantics = `semantics` must be "transformers", "llama.cpp" or "tutorial", got { $got }
err-llama-unknown-field = unknown llama.cpp field `{ $field }`{ $hint }

rule-temperature = `temperature` (={ $value }) has to be a strictly positive float, otherwise your next token scores will be invalid. If you're looking for greedy decoding strategies, set `do_sample=False`.
rule-too-many-beams = `num_beams` is { $asked }; this page allows at most { $max } beams per lane
rule-diverse-beams-sample = Diverse beam search cannot be used in sampling mode. Make sure that `do_sample` is set to `False`.
rule-more-sequences-than-beams = `num_return_sequences` has to be smaller or equal to `num_beams`.
rule-greedy-returns-one = Greedy methods without beam search do not support `num_return_sequences` different than 1 (got { $got }).
rule-too-many-samples = `num_return_sequences` is { $asked }; this page allows at most { $max } samples per lane
rule-samples-with-guidance = `num_return_sequences` > 1 with `guidance_scale` is not supported here: one unconditional pass follows one sample
rule-guidance-one-sequence = `guidance_scale` works with greedy and sampling lanes here (HF's unbatched guidance follows one sequence, not beams or contrastive candidates)
rule-empty-stop-string = `stop_strings` must not contain an empty string
rule-dola-layers = `dola_layers` must be "low", "high" or a non-empty list of layer indices from 0 (the embeddings)
rule-no-dola-candidates = `dola_layers` { $asked } leaves no layer to contrast with on this model ({ $layers } layers{ $tied ->
    [yes] , tied head
   *[no] {""}
}); name layers from 0 to { $last }
rule-constrained-conflict = `force_words_ids` triggers constrained beam search. However, `{ $knob }` is set to `{ $value }`, which is incompatible with this generation mode.
rule-constrained-needs-beams = `num_beams` has to be an integer strictly greater than 1 for constrained beam search (`force_words_ids`), but is { $got }
rule-groups-divide-beams = `num_beam_groups` has to be an integer smaller or equal than `num_beams` and `num_beams` has to be divisible by `num_beam_groups`, but is { $groups } with `num_beams` being { $beams }.
rule-groups-need-penalty = `diversity_penalty` should be greater than `0.0`, otherwise your groups will be identical.
rule-penalty-needs-groups = `diversity_penalty` needs `num_beam_groups` > 1: the penalty acts on the tokens earlier groups chose, and one group has none before it
rule-nan-bias = `sequence_bias` biases must be numbers, not NaN
rule-exponential-decay = `{ $knob }` is [start_index, decay_factor] with start_index >= 0 and a positive decay_factor, but is [{ $start }, { $factor }]
rule-not-a-token-id = `{ $knob }` must hold non-negative token ids, but has { $id }
rule-no-id-lists = `{ $knob }` has to be a non-empty list of token-id lists
rule-empty-id-list = `{ $knob }` must not hold an empty token-id list
rule-outside-vocabulary = `{ $knob }` names token { $id }, outside the vocabulary of { $size } tokens

llama-rule-between = `{ $knob }`: value must be between { $min } <= value <= { $max }, but got { $got }
llama-rule-infill = `infill` needs a fill-in-the-middle model's special tokens, which GPT-2 does not have; remove it from `samplers`
llama-rule-nothing-to-predict = `n_predict` 0 only evaluates the prompt in llama-server; give -1 (until the context is full) or a number of tokens
llama-rule-seed = `seed` is a 32-bit unsigned number (or -1), but got { $got }
llama-rule-repeat-penalty = penalty_repeat must be finite and greater than 0, but `repeat_penalty` is { $got }
llama-rule-no-breakers = Error: dry_sequence_breakers must be a non-empty array of strings
llama-rule-unknown-sampler = `samplers`: `{ $name }` is not a llama.cpp sampler{ $hint }; llama.cpp would skip it with a warning — the samplers are { $samplers }
llama-sampler-hint = {" "}(did you mean `{ $name }`?)
llama-rule-logit-bias = `logit_bias`: { $problem }
logit-bias-not-a-bias = a bias is a number or false, not { $value }
logit-bias-not-a-token-id = token { $value } is not a token id
logit-bias-not-a-token = a token is an id or a text, not { $value }
logit-bias-not-a-pair = each entry is [token, bias], not { $value }
logit-bias-not-list-or-object = give [[token, bias], ...] or {"{"}"token": bias{"}"}, not { $value }
llama-rule-outside-vocabulary = `logit_bias` names token { $id }, outside the vocabulary of { $size } tokens

toy-too-few = type at least two numbers, separated by commas (e.g. 2, 1, 0.1, -1, -2)
toy-too-many = at most { $max } numbers, please
toy-not-a-number = number { $position } (`{ $text }`) is not a number

## Errors: a lesson file refused

lesson-refused = this lesson cannot be opened: { $why }
lesson-at = at `{ $path }`: { $why }
lesson-too-large = it is { $bytes } bytes; a lesson file may be at most { $max } MB (keep long recorded runs in files of their own beside it)
lesson-not-json = it is not JSON: { $detail }
lesson-not-object = it is not a JSON object with a `version` and `steps`
lesson-no-version = it has no `version` (this page reads lesson format { $version })
lesson-other-version = it is lesson format { $got }; this page reads format { $version } (a newer page may open it)
problem-empty = it is empty
problem-too-long = it is longer than { $max } characters
problem-too-many = it holds { $found }; at most { $max } are read
problem-language = `{ $got }` is not a language tag such as `en` or `zh-CN`
problem-model = `{ $got }` is not `bundled` (the page's offline model), a hub repo id (`owner/name`) or a model folder beside the page (`models/name/`)
problem-no-such-lane = lane { $lane } does not exist: this step has lanes 1 to { $lanes }
problem-no-such-option = option { $answer } does not exist: this question has options 1 to { $options }
problem-option-count = a multiple-choice question needs 2 to { $max } options; it has { $found }
problem-step-zero = steps are counted from 1
problem-out-of-range = it is { $found }; it must be { $min } to { $max }
problem-recording-path = `{ $got }` is not a path to a `.json` file beside the lesson (no `..`, no leading `/`, no other site)
problem-recording-lanes = the recorded run has { $runs } lanes and the step { $lanes }
problem-recording-prompt = the recorded run's prompt is not the step's prompt

## Errors: the page's own

pick-no-config = pick config.json with the model's other files (config.json, model.safetensors, tokenizer.json)
pick-no-tokenizer = pick tokenizer.json too (or vocab.json with merges.txt)
pick-pickle-only = pytorch_model.bin is a PyTorch pickle a browser cannot read; convert it with transformers (save_pretrained(..., safe_serialization=True)) and pick the model.safetensors it writes
pick-no-weights = pick model.safetensors too (or all its shards, or one llama.cpp .gguf file)
pick-whole-and-shards = pick either model.safetensors or its shards, not both
pick-several-gguf = pick one .gguf file, not several ({ $names })
pick-several-pt = pick one .pt file, not several ({ $names })
pick-gguf-and-safetensors = pick either the .gguf file or the safetensors weights, not both
page-read-file = could not read { $name }
page-too-large = `{ $name }` is { $mb } MB; loading it needs about { $need } GB of memory, more than the 4 GB a browser tab's model can use
page-save = could not save { $name }: { $what }
page-no-plots = there are no plots to save yet
page-worker-start = could not start the worker: { $detail }
page-recording-too-large = `{ $name }` is { $mb } MB; a recorded run is at most { $max } MB
page-not-a-recording = `{ $name }` is not a run exported by this page (JSON export or `decode --json`): { $detail }
page-empty-recording = `{ $name }` holds no runs to replay
page-fetch = could not fetch `{ $url }`: { $why }
page-fetch-status = could not fetch `{ $url }`: the site answered { $status } { $text }
page-fetch-too-large = `{ $url }` is larger than { $max } MB
page-recording-misfit = the recorded run `{ $name }` does not fit its step: { $why }

## What the page says above the lanes and beside knobs

said-no-knob = this lane has no knob named `{ $name }`
said-sandbox-not-a-number = `{ $knob }`: `{ $text }` is not a number (leave it empty for off)
said-score-needs-text = type a continuation to score first
said-worker-down = the model worker is not running; restart it first
drawn-seed = Seed { $seed }, drawn for this run (the lane names no seed of its own).
keep-seed = Keep this seed
keep-seed-title = Make this seed the lane's own, so the next run repeats this one
said-out-of-memory = The model worker ran out of memory with { $model }{ $size }{ $device }. A new worker has started without a model; your prompt and lanes are kept. Pick a smaller model (the bundled one works offline), or close other tabs and load this one again.
oom-size = {" "}({ $weights } of weights, about { $need } to run{ $cache })
memory-cache = {" "}with four lanes' cache of { $tokens } tokens
oom-device = {" "}on a device that reports { $gb } GB
oom-no-model = no model loaded
site-models-format = This site's models/index.json is not a model index ({ $why }), so no hosted models are listed.
site-models-too-many = This site's models/index.json lists { $found } folders; at most { $max } are read, so none are listed.
site-models-folder = This site's models/index.json lists `{ $folder }`, which is not one plain folder name under models/, so no hosted models are listed.
hosted-models = Hosted with this page
hosted-load-label = load the model folder { $path }
hosted-facts = { $architecture } · { $download } download · needs about { $memory } of memory
hosted-facts-unknown = size not listed
hosted-too-large = too large for a browser tab
said-run-stalled = The run heard nothing from the model worker for { $seconds } s, so it was stopped; the lanes keep what they wrote. Run again — if the worker still does not answer, restart it. (A slow device or a long prompt may need more time: add ?stall=SECONDS to the address.)
said-no-random-seed = the browser gave no random numbers for a new seed ({ $why }): give each sampling lane a seed, or turn shared randomness on
said-model-not-ready = the model is not ready yet
said-chat-needs-turn = add a turn first
said-worker-crashed = { $why }. Your prompt and settings are kept; restart the worker to go on.
said-worker-unreadable = The worker sent { $known ->
    [yes] a `{ $kind }`
   *[no] a
} message this page could not read ({ $detail }).{ $stopped ->
    [yes] {" "}The run was stopped; the model stays loaded, so Run starts it again.
   *[no] {""}
}
said-branched = Branched from lane { $lane } at step { $step } with “{ $token }”: every lane continues from these exact { $tokens } tokens. Editing the prompt starts afresh.
said-hub-offline = The model hub could not be reached ({ $why }). Running the bundled offline model instead.
said-first-runs-shown = `{ $name }` holds { $runs } runs; the first { $lanes } are shown.
said-not-a-repo-id = `{ $text }` is not a hub repo id like distilbert/distilgpt2

## Errors: a share link or a lesson address refused

link-refused = this share link cannot be opened: { $why }
link-too-long = it is { $length } characters long; at most { $max } are read
link-no-version = it has no version prefix (expected `1.`)
link-other-version = it was made by another version of this page (link format `{ $got }`; this page reads `{ $version }`)
link-not-base64 = its data is not base64url (was it cut off when copied?)
link-damaged = its data is damaged or too large (was it cut off when copied?)
link-not-page-state = its contents are not a page state: { $detail }
link-prompt-too-long = its prompt is longer than { $max } characters
link-score-too-long = its text to score is longer than { $max } characters
link-lane-count = it holds { $lanes } lanes; the page has 1 to { $max }
link-lane = lane { $lane }: { $why }
link-model = it names the model `{ $got }`, which is not the bundled model, a hub repo id (owner/name) or a model folder beside the page (models/name/); one .gguf of a hub repo is named owner/name:Q4_K_M
link-chat-turns = its conversation holds { $turns } turns; at most { $max } are read
link-chat-turn-too-long = a turn of its conversation is longer than { $max } characters
lesson-address-empty = `?lesson=` is empty: give a lesson file's path on this site, e.g. `?lesson=lessons/four-runs.json`
lesson-address-other-site = `?lesson={ $path }` points to another site; a lesson opens only from this page's own site (a path such as `lessons/mine.json`) — download it and pick the file instead
lesson-address-not-json = `?lesson={ $path }` is not a `.json` file's path
said-no-constrained-search-in-llama = llama.cpp has no constrained beam search: switch the lane to transformers to make it include a phrase

## What the worker says about fetching a model

net-connection-failed = the connection to the hub failed
net-hub-answered = the hub answered { $status } { $text }
net-broke-off = the download of { $file } broke off{ $known ->
    [yes] {" "}at { $loaded } of { $total } MB
   *[no] {""}
}{ $resuming ->
    [yes] ; resuming where it stopped
   *[no] {""}
}
load-unreachable = could not reach { $url } (offline, or the host is blocked)
load-gave-up = { $why }, { $attempts } times in a row; try again later
load-wait-too-long = { $why } and asks to wait { $seconds } s; try again later
load-private = { $url } answered HTTP { $status }: the repo is private, gated or does not exist. This page downloads without signing in; for a gated model, download its files where you accepted its terms and pick them here
load-answered = { $url } answered HTTP { $status } { $text }
load-no-config = { $repo } has no config.json: is it a transformers model repo or folder?
load-no-tokenizer = { $repo } has neither tokenizer.json nor vocab.json with merges.txt
load-pickle-only = { $repo } has only pytorch_model.bin, a PyTorch pickle a browser cannot read (and should not: a pickle can run code). Convert it once with transformers (`AutoModelForCausalLM.from_pretrained("{ $repo }").save_pretrained("out", safe_serialization=True)`) and pick the files in out/, or choose a repo that has model.safetensors
load-no-weights = { $repo } has no model.safetensors (nor { $index })
load-shard-missing = { $repo }'s { $index } lists { $name }, which the repo does not have
load-gguf-no-files = { $repo } holds no single-file .gguf model{ $has_split ->
    [yes] {" "}({ $split } parts of split files, which this page does not read: join them with llama.cpp's `gguf-split --merge` and host the one file in a model folder)
   *[no] {""}
}
load-gguf-no-such-file = { $repo } has no file { $name }{ $listed ->
    [yes] ; it holds { $files }
   *[no] {""}
}
load-gguf-no-such-tag = no file in { $repo } is quantized as { $tag }; it holds { $files }
load-gguf-ambiguous = { $count } files in { $repo } are quantized as { $tag } ({ $files }); name the file instead: { $repo }:file.gguf
load-gguf-choose = { $repo } holds { $count } .gguf files and none is Q4_K_M (llama.cpp's choice); choose one: { $files }
load-already-loading = a model is already loading
load-nothing-to-load = nothing to load from
notice-storage-full = the browser's storage for this site is full, so the model runs from memory and will download again on your next visit (free space under the model's “Cached models”, or in the browser's site settings)
notice-storage-refused = the browser would not store it, so the model runs from memory and will download again on your next visit (free space under the model's “Cached models”, or in the browser's site settings)
notice-no-resume = the server cannot resume downloads (it ignored the Range request), so { $file } downloads again from the start
notice-plain-prompts = { $why }; prompts stay plain text
retry-countdown = { $why }; trying again in { $seconds } s (try { $attempt } of { $of })
retry-other-tab = another tab is downloading { $file }; this one reads it from the cache when it is done
said-nothing-to-score = the text to score must hold at least one token of this vocabulary
said-negative-prompt-too-long = lane { $lane }: the negative prompt ({ $tokens } tokens) and up to { $new } new tokens do not fit the model's { $positions } positions; shorten it or ask for fewer tokens
lesson-link-refused = this lesson link cannot be opened: { $why }
lesson-link-too-long = this lesson is { $chars } characters as a link; a link holds at most { $max }: put the file on the course site and link it with `?lesson=`
lesson-from-link = from a link
lesson-link-copy = Copy lesson link
lesson-link-copy-title = the whole lesson in one link (no file to host): its steps, prose, lanes and questions; recorded runs on this site travel as their paths
lesson-link-label = Lesson link
lesson-link-left = { $runs ->
    [one] One recorded run stays behind (it was inline or beside a picked file): that step runs live.
   *[other] { $runs } recorded runs stay behind (they were inline or beside a picked file): those steps run live.
}

## The lesson writer: the page saved as lesson steps, and the lesson downloaded.
lesson-from-writer = a preview of the lesson you are writing
writer-heading = Write a lesson
writer-intro = Set up the prompt and the lanes, run them, then save the page as a step. The lesson is kept in this browser until you download it as a file to host, link or embed.
writer-step-title-label = Step title
writer-note-label = Note for the class (Markdown)
writer-attach = Attach the run on screen (the step shows at once, with no download)
writer-question-kind = Question before the run is shown
writer-question-none = No question
writer-question-next-token = Which token comes next in a lane?
writer-question-which-lane = Which lane…? (the answer is a lane)
writer-question-choice = Multiple choice
writer-question-lane = Lane asked about
writer-question-answer-lane = Right lane
writer-question-ask = Question
writer-question-options = Options, one per line
writer-question-answer = Right option (its number)
writer-question-explanation = Explanation shown after the answer
writer-save-step = Save as lesson step
writer-save-step-title = Add the prompt, the lanes, the note and the question (and the run on screen) to the lesson as its next step
writer-saved = Saved as step { $step } of { $steps }.
writer-lesson-title = Lesson title
writer-language = Lesson language
writer-model = Written for the model: { $model }
writer-empty = No steps yet: the first “Save as lesson step” starts the lesson.
writer-step-title-aria = Step { $n } title
writer-step-note-aria = Step { $n } note
writer-step-up = Move step { $n } up
writer-step-down = Move step { $n } down
writer-step-remove = Remove step { $n }
writer-step-what = “{ $prompt }” · { $lanes ->
    [one] 1 lane
   *[other] { $lanes } lanes
} · { $questions ->
    [0] no question
    [one] 1 question
   *[other] { $questions } questions
}{ $recorded ->
    [yes] {" "}· run recorded
   *[no] {""}
}
writer-preview = Preview
writer-preview-title = Open the lesson in the lesson player, as the class will see it
writer-download = Download lesson file
writer-download-title = Save the lesson as a JSON file: put it next to the page and open it with ?lesson=, or pick it on any copy of the page
writer-clear = Start a new lesson
writer-clear-title = Remove this lesson from the browser (download it first to keep it)
writer-not-kept = This browser cannot keep the lesson (its storage is full or off): download it before you leave the page.
writer-no-run = there is no finished run of these lanes to attach: run them first, or save the step without its run
writer-run-differs = the run on screen is not of this prompt and these lanes (they changed after it ran): run again, or save the step without its run
writer-shared-randomness = shared randomness is on, and a lesson step gives each lane its own seed, so the step would not run as it does here: turn shared randomness off to save it
writer-library-defaults = lane { $lane } starts from the library's defaults; a lesson step's lanes start from the model's settings: switch lane { $lane } to the model's settings to save this step
writer-no-model-name = the model was loaded from files on this computer, and a lesson names the bundled model or a hub repo: load one of those to write a lesson
writer-other-model = this lesson is written for { $lesson }, and the page runs { $page } now: load { $lesson } again, or start a new lesson
writer-other-weights-eight-bit = this lesson keeps its model's weights in 8 bits, and the page keeps them as stored now: check “Keep weights in 8 bits” again, or start a new lesson
writer-other-weights-as-stored = this lesson keeps its model's weights as stored, and the page keeps them in 8 bits now: clear “Keep weights in 8 bits”, or start a new lesson
writer-too-large = with this run the lesson would be { $kb } kB, and a lesson file is read up to { $max } kB: save this step without its run
writer-full = a lesson holds at most { $max } steps
writer-clear-confirm = Remove the lesson{ $named ->
    [no] {""}
   *[other] {" "}“{ $title }”
} ({ $steps ->
    [one] 1 step
   *[other] { $steps } steps
}) from this browser? Download it first to keep it.

## A lesson as a package to upload (SCORM 1.2).
package = Download as a package
package-title = One zip with the page, this lesson, its recorded runs and the bundled model: upload it to the school's web space, or to an LMS (Moodle, Canvas…) as a SCORM 1.2 package
package-measuring = Finding out what the package holds…
package-holds = The package of “{ $title }” holds the page, the lesson, { $runs ->
    [one] 1 recorded run
   *[other] { $runs } recorded runs
}{ $model ->
    [yes] {" "}and the bundled model
   *[no] {""}
}: { $mb } MB.
package-hub-model = The lesson runs on { $model }: the package holds no model, and each student's browser downloads it from the hub.
package-left-behind = { $runs ->
    [one] 1 recorded run cannot come along (it was beside a picked file): that step runs live.
   *[other] { $runs } recorded runs cannot come along (they were beside a picked file): those steps run live.
}
package-how = Unzipped on any web space, its index.html opens the lesson, offline. An LMS imports the zip as it is (SCORM 1.2) and receives the lesson's score and completion.
package-download = Download the package ({ $mb } MB)
package-cancel = Not now
package-packing = Packing: { $done } of { $total } files…
package-done = Saved { $name } ({ $mb } MB).
package-site-files = `site-files.json` is not the build's list of the page's files: { $why }
package-zip = the package could not be written: { $why }

## Many samples as a tree.
tree-title = Many samples as a tree
tree-intro = Run one lane many times for a few tokens, each sample with its own random draw, and see where the samples part ways. Each branch shows how many of them wrote it, beside the probability the lane's knobs give that path: with more samples, the two meet.
tree-lane = Lane
tree-lane-n = lane { $lane }
tree-samples = Samples
tree-tokens = Tokens each
tree-grow = Grow the tree
tree-cancel = Stop
tree-progress = token { $level } of { $levels } · { $rows } model rows
tree-summary = { $samples } samples of lane { $lane } (seed { $seed }), { $tokens } tokens each: { $branches } branches. The model computed { $rows } rows instead of { $separate }, because samples that begin alike share their passes. { $seconds } s.
tree-summary-cancelled = Stopped early: { $samples } samples of lane { $lane } (seed { $seed }) as far as they got, { $branches } branches, { $rows } model rows, { $seconds } s.
tree-legend = Each box is a token. Beside it: the share of samples that wrote that branch (bold), and p, the probability the lane's knobs give the whole path. Thicker lines carry more samples; ■ marks samples that ended there; branches under 2 % are folded. Choose a branch to see its path.
tree-svg-label = The samples' continuations as a tree
tree-node-title = “{ $token }”: { $count } of { $samples } samples ({ $share }); the knobs give this path { $prob }, the model alone { $raw }
tree-more = + { $branches } more: { $count } { $count ->
        [one] sample
       *[other] samples
    } ({ $share })
tree-path-share = { $count } of { $samples } samples wrote this ({ $share }). The lane's knobs give it { $prob }; the model without knobs { $raw }.
tree-col-token = Token
tree-col-count = Samples
tree-col-prob = p (knobs)
tree-col-raw = p (model)
tree-follow = Open its steps in every lane
tree-export-json = Save the tree (JSON)
tree-export-svg = Save the drawing (SVG)
tree-refused-samples = a tree draws { $asked } samples; it may draw 1 to { $max }
tree-refused-tokens = a tree follows each sample for { $asked } tokens; it may follow 1 to { $max }
tree-refused-not-sampling = a tree needs a sampling lane: this lane decodes by { $mode }, which writes the same text however often it runs; switch do_sample on
tree-refused-unsupported = a tree does not draw from { $what } yet: choose a transformers sampling lane without it
tree-unsupported-llama-cpp = a llama.cpp sampler chain
tree-unsupported-tutorial = the tutorial's loop
tree-unsupported-dola = DoLa (dola_layers)
tree-unsupported-guidance = classifier-free guidance (guidance_scale)
tree-refused-too-large = { $samples } samples × { $tokens } tokens could hold { $need } of keys and values on this model, more than the { $budget } a tree may use: choose fewer samples or tokens
beam-tree-title = The beam search as a tree
beam-tree-intro = Every continuation the search weighed at each step, under the beam it extended. Beside each: its sum of log-probabilities (the search's score, higher is better) and what became of it. Choose one to open its step's tables in every lane.
beam-tree-legend = Solid boxes went on as beams; ■ marks a hypothesis that ended there; dashed ones were dropped. The thick line is the text the search returned (★); #2, #3… mark the other sequences it returned.
beam-tree-svg-label = The beam search's hypotheses as a tree
beam-tree-summary = Lane { $lane } weighed { $weighed } continuations over { $steps } steps: { $kept } went on as beams, { $finished } ended as hypotheses, { $dropped } were dropped.
beam-tree-summary-growing = Lane { $lane } is searching: { $weighed } continuations weighed over { $steps } steps so far.
beam-tree-node-title = Step { $step }: “{ $token }”, sum of log p { $score }, { $fate }
beam-tree-open = Step { $step }, sum of log p { $score }: { $fate }. Its step's tables are open above.
beam-tree-returned = The search returned it as sequence { $k }.
beam-tree-export-json = Save the tree (JSON)
lane-model-not-a-model = `{ $name }` is not a model the page can load: give `bundled`, a hub repo id (owner/name) or a model folder beside the page (models/name/)
lane-model-size-unknown = the size of `{ $name }` could not be learned, so the page cannot tell whether it fits beside the model in use; load it as the page's model instead
lane-model-too-big = `{ $name }` would not fit beside the models loaded: it needs about { $memory } ({ $download } to download) and the worker already holds { $held }; { $limit }
lane-model-limit-device = this device reports { $gb } GB, and a tab gets about half
lane-model-limit-wasm = a tab's WebAssembly holds at most 4 GB
lane-model-load = `{ $name }` did not load: { $why }
lane-model-load-file = `{ $name }` did not load ({ $file }): { $why }
link-lane-model = lane { $lane }'s model `{ $name }` is not the bundled model, a hub repo id (owner/name) or a model folder beside the page (models/name/)
lane-model = Model of this lane
lane-model-title = Run this lane on its own model: `bundled`, a hub repo (owner/name) or a folder beside the page (models/name/). Empty: the page's model.
lane-model-placeholder = the page's model
lane-model-on = On
lane-model-cost = { $download } to download, about { $memory } in memory
lane-model-measuring = asking its size…
lane-model-queued = waiting to load
lane-model-loading = loading…
lane-model-loading-share = loading { $percent } %
lane-model-ready = loaded: { $layers } layers, { $vocab } tokens
lane-model-failed = not loaded
compare-by-text = These lanes run on different models, whose vocabularies differ: the rows line up by each token’s text, not its id.
lane-model-sized = loads when you run
diverge-text-heading = The lanes run on different models, so they part by text: they write “{ $shared }” alike, then
diverge-text-at-once = The lanes run on different models, so they part by text: they differ from the first character.
diverge-text-lane = Lane { $lane } goes on with “{ $token }” (its step { $step })
drift-no-reference = weights. To see how far this step is from full precision, name the same model as stored in another lane (a lane naming the page's model while it is kept in 8 bits gets it as stored).
drift-against = {" "}weights against{" "}
drift-colon = :{" "}
drift-page-model = the page's model
drift-measuring = measuring…
drift-measured = KL { $kl } nats. { $agree ->
    [yes] Both put “{ $top }” first ({ $p } here, { $reference_p } at full precision).
   *[no] The likeliest token here is “{ $top }” ({ $p }); at full precision “{ $reference_top }” ({ $reference_p }).
}
drift-title = KL(full precision ‖ this lane): how far this lane's distribution at this step is from the full-precision model's after the same text, in nats (0 when they are the same). Fewer bits per weight move every probability a little.
