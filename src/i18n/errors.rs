//! Errors in the reader's language: the engine's, the lesson format's and
//! the page's typed errors, worded at the edge. English says exactly what
//! each error's `Display` says — HF's and llama-server's own words, which
//! people search for (a test holds the two equal); other languages say it
//! in theirs. Serde's details and the browser's words stay as they came.

use super::I18n;
use crate::lesson_package::PackageError;
use crate::lessons::address::LessonAddressError;
use crate::page_error::PageError;
use crate::state::writer_trouble::WriterTrouble;
use fluent_bundle::FluentValue;
use ntl_decoding::config_error::without_position;
use ntl_decoding::config_rule::{LlamaCppRule, LogitBiasProblem, Rule};
use ntl_decoding::constraints::ConstraintError;
use ntl_decoding::knob_table::Range;
use ntl_decoding::llama_cpp::sampler::SamplerName;
use ntl_decoding::llama_cpp::LlamaCppKnob;
use ntl_decoding::sandbox::{ToyError, MAX_TOY_LOGITS};
use ntl_decoding::watermark::WatermarkError;
use ntl_decoding::{ConfigError, Knob};
use ntl_protocol::lesson::link::{LessonLinkError, LINK_VERSION, MAX_LESSON_LINK_CHARS};
use ntl_protocol::lesson::{LessonError, Problem, FORMAT_VERSION, MAX_LESSON_BYTES, MAX_STEPS};
use ntl_protocol::picked::PickError;
use ntl_protocol::share::{
    ShareError, MAX_CHAT_TURNS, MAX_LANES, MAX_LINK_CHARS, MAX_PROMPT_CHARS, VERSION,
};

/// A value as the message shows it: Rust's own spelling (`1.5`, `inf`,
/// `-3`), the same in every language, never regrouped.
fn v(x: impl ToString) -> FluentValue<'static> {
    FluentValue::from(x.to_string())
}

impl I18n {
    /// A lane's or the sandbox's config error.
    pub fn config_error(&self, e: &ConfigError) -> String {
        match e {
            ConfigError::Json(j) => {
                self.t_with("err-config-json", &[("detail", v(without_position(j)))])
            }
            ConfigError::NotAnObject => self.t("err-config-not-object"),
            // Seed 004's own words (its AssertionError messages), quoted.
            ConfigError::Tutorial { field, message } => self.t_with(
                "err-tutorial",
                &[("field", v(field)), ("detail", v(message))],
            ),
            ConfigError::UnknownField { field, suggestion } => self.t_with(
                "err-unknown-field",
                &[
                    ("field", v(field)),
                    ("hint", v(self.did_you_mean(suggestion.map(Knob::name)))),
                ],
            ),
            ConfigError::Unsupported { field, .. } => self.t_with(
                "err-unsupported",
                &[
                    ("field", v(field)),
                    (
                        "why",
                        v(self.t_with("err-unsupported-why", &[("field", v(field))])),
                    ),
                ],
            ),
            ConfigError::BadValue { knob, source } => self.bad_value(knob.name(), source),
            ConfigError::LlamaCppBadValue { knob, source } => self.bad_value(knob.name(), source),
            ConfigError::NotANumber { knob, text } => self.not_a_number(knob.name(), text),
            ConfigError::Invalid { knob, rule } => self.rule(*knob, rule),
            ConfigError::OutOfRange { knob, value } => self.out_of_range(*knob, *value),
            ConfigError::Constraint(c) => match c {
                ConstraintError::Shape => self.t("err-force-words-shape"),
                ConstraintError::Subset { phrases } => self.t_with(
                    "err-force-words-subset",
                    &[("phrases", v(format!("{phrases:?}")))],
                ),
            },
            ConfigError::Watermark(w) => match w {
                WatermarkError::GreenlistRatio(x) => {
                    self.t_with("err-watermark-ratio", &[("value", v(x))])
                }
                WatermarkError::Bias(x) => self.t_with("err-watermark-bias", &[("value", v(x))]),
                WatermarkError::ContextWidth(x) => {
                    self.t_with("err-watermark-context", &[("value", v(x))])
                }
            },
            ConfigError::BadSemantics(got) => self.t_with("err-bad-semantics", &[("got", v(got))]),
            ConfigError::LlamaCppUnknownField { field, suggestion } => self.t_with(
                "err-llama-unknown-field",
                &[
                    ("field", v(field)),
                    (
                        "hint",
                        v(self.did_you_mean(suggestion.map(LlamaCppKnob::name))),
                    ),
                ],
            ),
            ConfigError::LlamaCpp { knob, rule } => self.llama_rule(*knob, rule),
        }
    }

    fn did_you_mean(&self, name: Option<&str>) -> String {
        name.map(|n| self.t_with("err-did-you-mean", &[("name", v(n))]))
            .unwrap_or_default()
    }

    fn bad_value(&self, knob: &str, source: &serde_json::Error) -> String {
        self.t_with(
            "err-bad-value",
            &[("knob", v(knob)), ("detail", v(without_position(source)))],
        )
    }

    fn not_a_number(&self, knob: &str, text: &str) -> String {
        self.t_with("err-not-a-number", &[("knob", v(knob)), ("text", v(text))])
    }

    /// A number outside a knob's range: HF's words in English where HF has
    /// them (the catalog's `err-out-of-range` selects them by knob).
    fn out_of_range(&self, knob: Knob, value: f64) -> String {
        let info = knob.info();
        let args = |range: String| {
            [
                ("knob", v(knob.name())),
                ("value", v(value)),
                ("range", v(range)),
            ]
        };
        match (info.hf_message.is_some(), info.range) {
            (_, Some(Range::Finite)) if info.hf_message.is_none() => {
                self.t_with("err-not-finite", &args(String::new())[..2])
            }
            (true, Some(Range::Finite)) => {
                self.t_with("err-out-of-range", &args(self.t("range-finite")))
            }
            (_, Some(r)) => self.t_with("err-out-of-range", &args(r.to_string())),
            (_, None) => self.t_with("err-cannot-be", &args(String::new())[..2]),
        }
    }

    fn rule(&self, knob: Knob, rule: &Rule) -> String {
        let k = || ("knob", v(knob.name()));
        match rule {
            Rule::SamplingNeedsTemperature(t) => {
                self.t_with("rule-temperature", &[("value", v(t))])
            }
            Rule::TooManyBeams { asked, max } => self.t_with(
                "rule-too-many-beams",
                &[("asked", v(asked)), ("max", v(max))],
            ),
            Rule::DiverseBeamsCannotSample => self.t("rule-diverse-beams-sample"),
            Rule::MoreSequencesThanBeams => self.t("rule-more-sequences-than-beams"),
            Rule::GreedyReturnsOne(n) => self.t_with("rule-greedy-returns-one", &[("got", v(n))]),
            Rule::TooManySamples { asked, max } => self.t_with(
                "rule-too-many-samples",
                &[("asked", v(asked)), ("max", v(max))],
            ),
            Rule::SamplesWithGuidance => self.t("rule-samples-with-guidance"),
            Rule::GuidanceNeedsOneSequence => self.t("rule-guidance-one-sequence"),
            Rule::EmptyStopString => self.t("rule-empty-stop-string"),
            Rule::DolaLayers => self.t("rule-dola-layers"),
            Rule::NoDolaCandidates(e) => self.t_with(
                "rule-no-dola-candidates",
                &[
                    ("asked", v(&e.asked)),
                    ("layers", v(e.n_layers)),
                    ("tied", v(if e.tied_head { "yes" } else { "no" })),
                    ("last", v(e.last)),
                ],
            ),
            Rule::ConstrainedConflict(value) => {
                self.t_with("rule-constrained-conflict", &[k(), ("value", v(value))])
            }
            Rule::ConstrainedNeedsBeams(n) => {
                self.t_with("rule-constrained-needs-beams", &[("got", v(n))])
            }
            Rule::GroupsDivideBeams { groups, beams } => self.t_with(
                "rule-groups-divide-beams",
                &[("groups", v(groups)), ("beams", v(beams))],
            ),
            Rule::GroupsNeedPenalty => self.t("rule-groups-need-penalty"),
            Rule::PenaltyNeedsGroups => self.t("rule-penalty-needs-groups"),
            Rule::NanBias => self.t("rule-nan-bias"),
            Rule::ExponentialDecay { start, factor } => self.t_with(
                "rule-exponential-decay",
                &[k(), ("start", v(start)), ("factor", v(factor))],
            ),
            Rule::NotATokenId(id) => self.t_with("rule-not-a-token-id", &[k(), ("id", v(id))]),
            Rule::NoIdLists => self.t_with("rule-no-id-lists", &[k()]),
            Rule::EmptyIdList => self.t_with("rule-empty-id-list", &[k()]),
            Rule::OutsideVocabulary { id, vocab_size } => self.t_with(
                "rule-outside-vocabulary",
                &[k(), ("id", v(id)), ("size", v(vocab_size))],
            ),
        }
    }

    fn llama_rule(&self, knob: LlamaCppKnob, rule: &LlamaCppRule) -> String {
        match rule {
            LlamaCppRule::Between { min, max, got } => self.t_with(
                "llama-rule-between",
                &[
                    ("knob", v(knob.name())),
                    ("min", v(min)),
                    ("max", v(max)),
                    ("got", v(got)),
                ],
            ),
            LlamaCppRule::NotANumber(text) => self.not_a_number(knob.name(), text),
            LlamaCppRule::Infill => self.t("llama-rule-infill"),
            LlamaCppRule::NothingToPredict => self.t("llama-rule-nothing-to-predict"),
            LlamaCppRule::Seed(s) => self.t_with("llama-rule-seed", &[("got", v(s))]),
            LlamaCppRule::RepeatPenalty(p) => {
                self.t_with("llama-rule-repeat-penalty", &[("got", v(p))])
            }
            LlamaCppRule::NoBreakers => self.t("llama-rule-no-breakers"),
            LlamaCppRule::UnknownSampler { name, hint } => {
                let samplers = SamplerName::listable()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join(", ");
                let hint = hint
                    .map(|h| self.t_with("llama-sampler-hint", &[("name", v(h))]))
                    .unwrap_or_default();
                self.t_with(
                    "llama-rule-unknown-sampler",
                    &[
                        ("name", v(name)),
                        ("hint", v(hint)),
                        ("samplers", v(samplers)),
                    ],
                )
            }
            LlamaCppRule::LogitBias(p) => {
                let (id, value) = match p {
                    LogitBiasProblem::NotABias(x) => ("logit-bias-not-a-bias", x),
                    LogitBiasProblem::NotATokenId(x) => ("logit-bias-not-a-token-id", x),
                    LogitBiasProblem::NotAToken(x) => ("logit-bias-not-a-token", x),
                    LogitBiasProblem::NotAPair(x) => ("logit-bias-not-a-pair", x),
                    LogitBiasProblem::NotListOrObject(x) => ("logit-bias-not-list-or-object", x),
                };
                let problem = self.t_with(id, &[("value", v(value))]);
                self.t_with("llama-rule-logit-bias", &[("problem", v(problem))])
            }
            LlamaCppRule::OutsideVocabulary { id, vocab_size } => self.t_with(
                "llama-rule-outside-vocabulary",
                &[("id", v(id)), ("size", v(vocab_size))],
            ),
        }
    }

    /// The sandbox's typed logits refused.
    pub fn toy_error(&self, e: &ToyError) -> String {
        match e {
            ToyError::TooFew => self.t("toy-too-few"),
            ToyError::TooMany => self.t_with("toy-too-many", &[("max", v(MAX_TOY_LOGITS))]),
            ToyError::NotANumber { position, text } => self.t_with(
                "toy-not-a-number",
                &[("position", v(position)), ("text", v(text))],
            ),
        }
    }

    /// Why a lesson file is refused.
    pub fn lesson_error(&self, e: &LessonError) -> String {
        let at = |path: &str, why: String| {
            self.t_with("lesson-at", &[("path", v(path)), ("why", v(why))])
        };
        let why = match e {
            LessonError::TooLarge(bytes) => self.t_with(
                "lesson-too-large",
                &[
                    ("bytes", v(bytes)),
                    ("max", v(MAX_LESSON_BYTES / (1024 * 1024))),
                ],
            ),
            LessonError::NotJson(j) => self.t_with("lesson-not-json", &[("detail", v(j))]),
            LessonError::NotAnObject => self.t("lesson-not-object"),
            LessonError::NoVersion => {
                self.t_with("lesson-no-version", &[("version", v(FORMAT_VERSION))])
            }
            LessonError::OtherVersion(got) => self.t_with(
                "lesson-other-version",
                &[("got", v(got)), ("version", v(FORMAT_VERSION))],
            ),
            LessonError::Shape { path, source } => at(path, source.to_string()),
            LessonError::Lane { path, source } => at(path, self.config_error(source)),
            LessonError::Invalid { path, problem } => at(path, self.problem(problem)),
        };
        self.t_with("lesson-refused", &[("why", v(why))])
    }

    fn problem(&self, p: &Problem) -> String {
        match p {
            Problem::Empty => self.t("problem-empty"),
            Problem::TooLong(n) => self.t_with("problem-too-long", &[("max", v(n))]),
            Problem::TooMany { found, max } => {
                self.t_with("problem-too-many", &[("found", v(found)), ("max", v(max))])
            }
            Problem::Language(tag) => self.t_with("problem-language", &[("got", v(tag))]),
            Problem::Model(m) => self.t_with("problem-model", &[("got", v(m))]),
            Problem::NoSuchLane { lane, lanes } => self.t_with(
                "problem-no-such-lane",
                &[("lane", v(lane)), ("lanes", v(lanes))],
            ),
            Problem::NoSuchOption { answer, options } => self.t_with(
                "problem-no-such-option",
                &[("answer", v(answer)), ("options", v(options))],
            ),
            Problem::OptionCount { found, max } => self.t_with(
                "problem-option-count",
                &[("found", v(found)), ("max", v(max))],
            ),
            Problem::StepZero => self.t("problem-step-zero"),
            Problem::OutOfRange { found, min, max } => self.t_with(
                "problem-out-of-range",
                &[("found", v(found)), ("min", v(min)), ("max", v(max))],
            ),
            Problem::RecordingPath(p) => self.t_with("problem-recording-path", &[("got", v(p))]),
            Problem::RecordingLanes { runs, lanes } => self.t_with(
                "problem-recording-lanes",
                &[("runs", v(runs)), ("lanes", v(lanes))],
            ),
            Problem::RecordingPrompt => self.t("problem-recording-prompt"),
        }
    }

    /// Why a share link is refused.
    pub fn share_error(&self, e: &ShareError) -> String {
        let why = match e {
            ShareError::TooLong(n) => self.t_with(
                "link-too-long",
                &[("length", v(n)), ("max", v(MAX_LINK_CHARS))],
            ),
            ShareError::NoVersion => self.t("link-no-version"),
            ShareError::OtherVersion(got) => self.t_with(
                "link-other-version",
                &[("got", v(got)), ("version", v(VERSION))],
            ),
            ShareError::NotBase64(_) => self.t("link-not-base64"),
            ShareError::Damaged => self.t("link-damaged"),
            ShareError::NotPageState(j) => self.t_with("link-not-page-state", &[("detail", v(j))]),
            ShareError::PromptTooLong => {
                self.t_with("link-prompt-too-long", &[("max", v(MAX_PROMPT_CHARS))])
            }
            ShareError::ScoreTooLong => {
                self.t_with("link-score-too-long", &[("max", v(MAX_PROMPT_CHARS))])
            }
            ShareError::LaneCount(n) => {
                self.t_with("link-lane-count", &[("lanes", v(n)), ("max", v(MAX_LANES))])
            }
            ShareError::Lane { lane, source } => self.t_with(
                "link-lane",
                &[("lane", v(lane + 1)), ("why", v(self.config_error(source)))],
            ),
            ShareError::Model(m) => self.t_with("link-model", &[("got", v(m))]),
            ShareError::LaneModel { lane, name } => self.t_with(
                "link-lane-model",
                &[("lane", v(lane + 1)), ("name", v(name))],
            ),
            ShareError::ChatTurns(n) => self.t_with(
                "link-chat-turns",
                &[("turns", v(n)), ("max", v(MAX_CHAT_TURNS))],
            ),
            ShareError::ChatTurnTooLong => {
                self.t_with("link-chat-turn-too-long", &[("max", v(MAX_PROMPT_CHARS))])
            }
        };
        self.t_with("link-refused", &[("why", v(why))])
    }

    /// Why a `#lesson=` link is refused.
    pub fn lesson_link_error(&self, e: &LessonLinkError) -> String {
        let why = match e {
            LessonLinkError::Lesson(l) => return self.lesson_error(l),
            LessonLinkError::TooLong(n) => self.t_with(
                "link-too-long",
                &[("length", v(n)), ("max", v(MAX_LESSON_LINK_CHARS))],
            ),
            LessonLinkError::NoVersion => self.t("link-no-version"),
            LessonLinkError::OtherVersion(got) => self.t_with(
                "link-other-version",
                &[("got", v(got)), ("version", v(LINK_VERSION))],
            ),
            LessonLinkError::NotBase64 => self.t("link-not-base64"),
            LessonLinkError::Damaged => self.t("link-damaged"),
        };
        self.t_with("lesson-link-refused", &[("why", v(why))])
    }

    /// Why a lesson step is not saved, or the lesson not written out.
    pub fn writer_trouble(&self, t: &WriterTrouble) -> String {
        match t {
            WriterTrouble::NoRun => self.t("writer-no-run"),
            WriterTrouble::RunDiffers => self.t("writer-run-differs"),
            WriterTrouble::SharedRandomness => self.t("writer-shared-randomness"),
            WriterTrouble::LibraryDefaults { lane } => {
                self.t_with("writer-library-defaults", &[("lane", v(lane))])
            }
            WriterTrouble::NoModelName => self.t("writer-no-model-name"),
            WriterTrouble::OtherModel { lesson, page } => self.t_with(
                "writer-other-model",
                &[("lesson", v(lesson)), ("page", v(page))],
            ),
            WriterTrouble::OtherWeights { lesson, .. } => match lesson {
                ntl_protocol::LoadWeights::Q8_0 => self.t("writer-other-weights-eight-bit"),
                ntl_protocol::LoadWeights::AsStored => self.t("writer-other-weights-as-stored"),
            },
            WriterTrouble::TooLarge { kb, max_kb } => {
                self.t_with("writer-too-large", &[("kb", v(kb)), ("max", v(max_kb))])
            }
            WriterTrouble::Full => self.t_with("writer-full", &[("max", v(MAX_STEPS))]),
            WriterTrouble::Invalid(e) => self.lesson_error(e),
        }
    }

    /// Why a `?lesson=` address is refused.
    pub fn lesson_address_error(&self, e: &LessonAddressError) -> String {
        match e {
            LessonAddressError::Empty => self.t("lesson-address-empty"),
            LessonAddressError::OtherOrigin(p) => {
                self.t_with("lesson-address-other-site", &[("path", v(p))])
            }
            LessonAddressError::NotJson(p) => {
                self.t_with("lesson-address-not-json", &[("path", v(p))])
            }
        }
    }

    /// What is missing from picked model files.
    pub fn pick_error(&self, e: &PickError) -> String {
        self.t(match e {
            PickError::NoConfig => "pick-no-config",
            PickError::NoTokenizer => "pick-no-tokenizer",
            PickError::PickleOnly => "pick-pickle-only",
            PickError::NoWeights => "pick-no-weights",
            PickError::WholeAndShards => "pick-whole-and-shards",
            PickError::SeveralGguf(names) => {
                return self.t_with("pick-several-gguf", &[("names", v(names.join(", ")))])
            }
            PickError::GgufAndSafetensors => "pick-gguf-and-safetensors",
            PickError::SeveralPt(names) => {
                return self.t_with("pick-several-pt", &[("names", v(names.join(", ")))])
            }
        })
    }

    /// What failed in the page itself.
    pub fn page_error(&self, e: &PageError) -> String {
        match e {
            PageError::Pick(p) => self.pick_error(p),
            PageError::ReadFile { name } => self.t_with("page-read-file", &[("name", v(name))]),
            PageError::TooLarge { name, mb, need_gb } => self.t_with(
                "page-too-large",
                &[
                    ("name", v(name)),
                    ("mb", v(format!("{mb:.0}"))),
                    ("need", v(format!("{need_gb:.1}"))),
                ],
            ),
            PageError::Save { name, what } => {
                self.t_with("page-save", &[("name", v(name)), ("what", v(what))])
            }
            PageError::NoPlots => self.t("page-no-plots"),
            PageError::WorkerStart { detail } => {
                self.t_with("page-worker-start", &[("detail", v(detail))])
            }
            PageError::RecordingTooLarge { name, mb, max_mb } => self.t_with(
                "page-recording-too-large",
                &[
                    ("name", v(name)),
                    ("mb", v(format!("{mb:.0}"))),
                    ("max", v(format!("{max_mb:.0}"))),
                ],
            ),
            PageError::NotARecording { name, source } => self.t_with(
                "page-not-a-recording",
                &[("name", v(name)), ("detail", v(source))],
            ),
            PageError::EmptyRecording { name } => {
                self.t_with("page-empty-recording", &[("name", v(name))])
            }
            PageError::Lesson(l) => self.lesson_error(l),
            PageError::Fetch { url, why } => {
                self.t_with("page-fetch", &[("url", v(url)), ("why", v(why))])
            }
            PageError::FetchStatus { url, status, text } => self.t_with(
                "page-fetch-status",
                &[("url", v(url)), ("status", v(status)), ("text", v(text))],
            ),
            PageError::FetchTooLarge { url, max_mb } => self.t_with(
                "page-fetch-too-large",
                &[("url", v(url)), ("max", v(max_mb))],
            ),
            PageError::RecordingMisfit { name, source } => self.t_with(
                "page-recording-misfit",
                &[("name", v(name)), ("why", v(self.lesson_error(source)))],
            ),
            PageError::Package(PackageError::SiteFiles(why)) => {
                self.t_with("package-site-files", &[("why", v(why))])
            }
            PageError::Package(PackageError::Zip(e)) => {
                self.t_with("package-zip", &[("why", v(e))])
            }
        }
    }
}
