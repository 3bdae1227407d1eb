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
