//! English words every error as its own `Display` does (HF's and
//! llama-server's words, which people search for); Chinese words each one
//! differently, so none reaches a Chinese page in English.

use super::I18n;
use crate::lessons::address::LessonAddressError;
use crate::page_error::PageError;
use crate::said::{Retry, Said};
use ntl_decoding::config::intake::UNSUPPORTED_KEYS;
use ntl_decoding::config_rule::{LlamaCppRule, LogitBiasProblem, Rule};
use ntl_decoding::constraints::ConstraintError;
use ntl_decoding::dola::{candidate_layers, DolaLayers};
use ntl_decoding::knob_table::HF_KNOBS;
use ntl_decoding::llama_cpp::LlamaCppKnob;
use ntl_decoding::sandbox::ToyError;
use ntl_decoding::watermark::WatermarkError;
use ntl_decoding::{ConfigError, GenerationConfig, Knob};
use ntl_protocol::lesson::link::{self, LessonLinkError};
use ntl_protocol::lesson::{self, LessonError, Problem};
use ntl_protocol::picked::PickError;
use ntl_protocol::share::{self, ShareError};
use ntl_protocol::trouble::{LoadTrouble, NetTrouble, WorkerNotice};

fn config_errors() -> Vec<ConfigError> {
    let parse = |json: &str| GenerationConfig::from_json(json).unwrap_err();
    let mut out = vec![
        parse("{"),
        parse("[1]"),
        parse(r#"{"top_kk": 5}"#),
        parse(r#"{"zzzzzzzz": 5}"#),
        parse(r#"{"top_k": "fifty"}"#),
        ConfigError::NotANumber {
            knob: Knob::TopP,
            text: "lots".into(),
        },
        ConfigError::Constraint(ConstraintError::Shape),
        ConfigError::Constraint(ConstraintError::Subset {
            phrases: vec![vec![1, 2], vec![1]],
        }),
        ConfigError::Watermark(WatermarkError::GreenlistRatio(1.5)),
        ConfigError::Watermark(WatermarkError::Bias(f64::NAN)),
        ConfigError::Watermark(WatermarkError::ContextWidth(0)),
        ConfigError::BadSemantics("\"vllm\"".into()),
        ConfigError::Tutorial {
            field: "temperature".into(),
            message: "`temperature` must be positive.".into(),
        },
        ConfigError::LlamaCppUnknownField {
            field: "top_kk".into(),
            suggestion: Some(LlamaCppKnob::TopK),
        },
        ConfigError::LlamaCppUnknownField {
            field: "zzzzzzzz".into(),
            suggestion: None,
        },
    ];
    for (field, _) in UNSUPPORTED_KEYS {
        out.push(parse(&format!(r#"{{"{field}": 1}}"#)));
    }
    // Every knob out of range, with HF's words where HF has them.
    for info in HF_KNOBS {
        out.push(ConfigError::OutOfRange {
            knob: info.knob,
            value: -1.5,
        });
    }
    let no_layers = candidate_layers(&DolaLayers::List(vec![9]), 2, true).unwrap_err();
    let rules = [
        Rule::SamplingNeedsTemperature(0.0),
        Rule::TooManyBeams { asked: 9, max: 8 },
        Rule::DiverseBeamsCannotSample,
        Rule::MoreSequencesThanBeams,
        Rule::GreedyReturnsOne(3),
        Rule::TooManySamples { asked: 9, max: 8 },
        Rule::SamplesWithGuidance,
        Rule::GuidanceNeedsOneSequence,
        Rule::EmptyStopString,
        Rule::DolaLayers,
        Rule::NoDolaCandidates(no_layers),
        Rule::ConstrainedConflict("true".into()),
        Rule::ConstrainedNeedsBeams(1),
        Rule::GroupsDivideBeams {
            groups: 3,
            beams: 4,
        },
        Rule::GroupsNeedPenalty,
        Rule::PenaltyNeedsGroups,
        Rule::NanBias,
        Rule::ExponentialDecay {
            start: -1,
            factor: 0.5,
        },
        Rule::NotATokenId(-3),
        Rule::NoIdLists,
        Rule::EmptyIdList,
        Rule::OutsideVocabulary {
            id: 60000,
            vocab_size: 50257,
        },
    ];
    out.extend(rules.into_iter().map(|rule| ConfigError::Invalid {
        knob: Knob::BadWordsIds,
        rule,
    }));
    let llama = [
        LlamaCppRule::Between {
            min: 0.0,
            max: 1.0,
            got: 2.0,
        },
        LlamaCppRule::NotANumber("x".into()),
        LlamaCppRule::Infill,
        LlamaCppRule::NothingToPredict,
        LlamaCppRule::Seed(-5),
        LlamaCppRule::RepeatPenalty(0.0),
        LlamaCppRule::NoBreakers,
        LlamaCppRule::UnknownSampler {
            name: "top_kk".into(),
            hint: Some("top_k"),
        },
        LlamaCppRule::UnknownSampler {
            name: "zzz".into(),
            hint: None,
        },
        LlamaCppRule::LogitBias(LogitBiasProblem::NotABias("\"x\"".into())),
        LlamaCppRule::LogitBias(LogitBiasProblem::NotATokenId("-1".into())),
        LlamaCppRule::LogitBias(LogitBiasProblem::NotAToken("null".into())),
        LlamaCppRule::LogitBias(LogitBiasProblem::NotAPair("[1]".into())),
        LlamaCppRule::LogitBias(LogitBiasProblem::NotListOrObject("3".into())),
        LlamaCppRule::OutsideVocabulary {
            id: 60000,
            vocab_size: 50257,
        },
    ];
    out.extend(llama.into_iter().map(|rule| ConfigError::LlamaCpp {
        knob: LlamaCppKnob::TopK,
        rule,
    }));
    out
}

fn lesson_errors() -> Vec<LessonError> {
    let parse = |json: &str| lesson::parse(json.as_bytes()).unwrap_err();
    let mut out = vec![
        LessonError::TooLarge(3_000_000),
        parse("{"),
        parse("[1]"),
        parse(r#"{"steps": []}"#),
        parse(r#"{"version": 9, "steps": []}"#),
        parse(r#"{"version": 1, "title": "t", "steps": [{"prose": 3}]}"#),
        LessonError::Lane {
            path: "steps[0].lanes[1]".into(),
            source: ConfigError::OutOfRange {
                knob: Knob::TopP,
                value: 3.0,
            },
        },
    ];
    let problems = [
        Problem::Empty,
        Problem::TooLong(200),
        Problem::TooMany { found: 90, max: 64 },
        Problem::Language("klingon!".into()),
        Problem::Model("a/b/c".into()),
        Problem::NoSuchLane { lane: 5, lanes: 4 },
        Problem::NoSuchOption {
            answer: 5,
            options: 3,
        },
        Problem::OptionCount { found: 1, max: 6 },
        Problem::StepZero,
        Problem::OutOfRange {
            found: 2000,
            min: 1,
            max: 1000,
        },
        Problem::RecordingPath("../x.json".into()),
        Problem::RecordingLanes { runs: 2, lanes: 3 },
        Problem::RecordingPrompt,
    ];
    out.extend(problems.into_iter().map(|problem| LessonError::Invalid {
        path: "steps[2].title".into(),
        problem,
    }));
    out
}

fn share_errors() -> Vec<ShareError> {
    let lane = ConfigError::OutOfRange {
        knob: Knob::TopK,
        value: 0.0,
    };
    vec![
        share::decode(&"x".repeat(20_000)).unwrap_err(),
        share::decode("abc").unwrap_err(),
        share::decode("7.abc").unwrap_err(),
        share::decode("1.@@@").unwrap_err(),
        ShareError::Damaged,
        share::decode("1.AAAA").unwrap_err(),
        ShareError::PromptTooLong,
        ShareError::ScoreTooLong,
        ShareError::LaneCount(7),
        ShareError::Lane {
            lane: 2,
            source: lane,
        },
        ShareError::Model("not a repo".into()),
        ShareError::ChatTurns(40),
        ShareError::ChatTurnTooLong,
    ]
}

fn page_errors() -> Vec<PageError> {
    let json_error = || serde_json::from_str::<u32>("x").unwrap_err();
    let mut out: Vec<PageError> = [
        PickError::NoConfig,
        PickError::NoTokenizer,
        PickError::PickleOnly,
        PickError::NoWeights,
        PickError::WholeAndShards,
    ]
    .into_iter()
    .map(PageError::Pick)
    .collect();
    out.extend([
        PageError::ReadFile {
            name: "model.safetensors".into(),
        },
        PageError::TooLarge {
            name: "minigpt.pt".into(),
            mb: 1500.0,
            need_gb: 5.1,
        },
        PageError::Save {
            name: "run.json".into(),
            what: "no Blob",
        },
        PageError::NoPlots,
        PageError::WorkerStart {
            detail: "SecurityError".into(),
        },
        PageError::RecordingTooLarge {
            name: "big.json".into(),
            mb: 70.4,
            max_mb: 64.0,
        },
        PageError::NotARecording {
            name: "x.json".into(),
            source: json_error(),
        },
        PageError::EmptyRecording {
            name: "x.json".into(),
        },
        PageError::Lesson(LessonError::NotAnObject),
        PageError::Fetch {
            url: "lessons/x.json".into(),
            why: "TypeError: Failed to fetch".into(),
        },
        PageError::FetchStatus {
            url: "lessons/x.json".into(),
            status: 404,
            text: "Not Found".into(),
        },
        PageError::FetchTooLarge {
            url: "lessons/x.json".into(),
            max_mb: 2,
        },
        PageError::RecordingMisfit {
            name: "Lesson — 1/3".into(),
            source: LessonError::Invalid {
                path: "recording".into(),
                problem: Problem::RecordingPrompt,
            },
        },
        PageError::Package(crate::lesson_package::site_files(b"[]").unwrap_err()),
        PageError::Package(crate::lesson_package::PackageError::Zip(
            zip::result::ZipError::FileNotFound,
        )),
    ]);
    out
}

fn check(english: &str, own: String, chinese: String) {
    assert_eq!(english, own, "English differs from the error's own words");
    assert_ne!(
        chinese, own,
        "zh-CN says this in English (a message is missing or untranslated)"
    );
}

#[test]
fn every_error_is_worded_in_english_as_it_displays_and_in_chinese_otherwise() {
    let (en, zh) = (I18n::new("en"), I18n::new("zh-CN"));
    let mut seen = 0;
    for e in config_errors() {
        check(&en.config_error(&e), e.to_string(), zh.config_error(&e));
        seen += 1;
    }
    for e in lesson_errors() {
        check(&en.lesson_error(&e), e.to_string(), zh.lesson_error(&e));
        seen += 1;
    }
    for e in share_errors() {
        check(&en.share_error(&e), e.to_string(), zh.share_error(&e));
        seen += 1;
    }
    for e in page_errors() {
        check(&en.page_error(&e), e.to_string(), zh.page_error(&e));
        seen += 1;
    }
    for e in [
        LessonAddressError::Empty,
        LessonAddressError::OtherOrigin("https://x/y.json".into()),
        LessonAddressError::NotJson("x.txt".into()),
    ] {
        check(
            &en.lesson_address_error(&e),
            e.to_string(),
            zh.lesson_address_error(&e),
        );
        seen += 1;
    }
    for e in [
        link::decode(&"x".repeat(link::MAX_LESSON_LINK_CHARS + 1)).unwrap_err(),
        link::decode("abc").unwrap_err(),
        link::decode("7.abc").unwrap_err(),
        link::decode("1.%%%").unwrap_err(),
        link::decode("1.AAAA").unwrap_err(),
        LessonLinkError::Lesson(LessonError::NoVersion),
    ] {
        check(
            &en.lesson_link_error(&e),
            e.to_string(),
            zh.lesson_link_error(&e),
        );
        seen += 1;
    }
    {
        use ntl_decoding::sample_tree::{TreeRefusal as R, TreeUnsupported as U};
        let refusals = [
            R::Samples {
                asked: 0,
                max: 1000,
            },
            R::Tokens { asked: 17, max: 16 },
            R::NotSampling {
                mode: ntl_decoding::Mode::Beam,
            },
            R::Unsupported { what: U::LlamaCpp },
            R::Unsupported { what: U::Tutorial },
            R::Unsupported { what: U::Dola },
            R::Unsupported { what: U::Guidance },
            R::TooLarge {
                samples: 1000,
                tokens: 16,
                need_mb: 600,
                budget_mb: 536,
            },
        ];
        for r in refusals {
            check(&en.tree_refusal(&r), r.to_string(), zh.tree_refusal(&r));
            seen += 1;
        }
    }
    let long = link::TooLongForALink { chars: 40_000 };
    check(
        &en.said(&Said::TooLongForALink(long.clone())),
        long.to_string(),
        zh.said(&Said::TooLongForALink(long)),
    );
    for e in [
        ToyError::TooFew,
        ToyError::TooMany,
        ToyError::NotANumber {
            position: 2,
            text: "x".into(),
        },
    ] {
        check(&en.toy_error(&e), e.to_string(), zh.toy_error(&e));
        seen += 1;
    }
    assert!(seen > 130, "{seen}");
}

#[test]
fn what_the_page_says_is_chinese_on_a_chinese_page() {
    let zh = I18n::new("zh-CN");
    let en = I18n::new("en");
    let said = [
        Said::NoKnob("top_kk".into()),
        Said::LaneModel {
            name: "../x/".into(),
            trouble: crate::state::lane_models::LaneModelTrouble::NotAModel,
        },
        Said::LaneModel {
            name: "owner/big".into(),
            trouble: crate::state::lane_models::LaneModelTrouble::TooBig {
                cost: crate::state::lane_models::LaneModelCost {
                    download: 3_000_000_000,
                    memory: 6_000_000_000,
                },
                held: 400_000_000,
                device_gb: Some(8.0),
            },
        },
        Said::LaneModel {
            name: "owner/odd".into(),
            trouble: crate::state::lane_models::LaneModelTrouble::SizeUnknown,
        },
        Said::SandboxNotANumber {
            knob: "top_p".into(),
            text: "x".into(),
        },
        Said::ScoreNeedsText,
        Said::WorkerDown,
        Said::ModelNotReady,
        Said::ChatNeedsTurn,
        Said::WorkerCrashed("RuntimeError: unreachable".into()),
        Said::WorkerUnreadable {
            kind: Some("step".into()),
            detail: "invalid type: null".into(),
            stopped: true,
        },
        Said::WorkerUnreadable {
            kind: None,
            detail: "not JSON".into(),
            stopped: false,
        },
        Said::Branched {
            lane: 2,
            step: 3,
            token: " the".into(),
            tokens: 9,
        },
        Said::HubOffline(LoadTrouble::Unreachable {
            url: "https://huggingface.co/x/y/resolve/main/config.json".into(),
        }),
        Said::FirstRunsShown {
            name: "x.json".into(),
            runs: 6,
        },
        Said::NoConstrainedSearchInLlama,
        Said::NotARepoId("not a repo".into()),
        Said::NothingToScore,
        Said::NegativePromptTooLong {
            lane: 2,
            tokens: 900,
            new_tokens: 200,
            positions: 1024,
        },
        Said::NoRandomSeed("crypto unavailable".into()),
        Said::RunStalled { seconds: 60 },
        Said::OutOfMemory {
            source: Some(ntl_protocol::ModelSource::Hub {
                repo: "Qwen/Qwen2.5-0.5B".into(),
                gguf: None,
            }),
            need: Some(crate::state::memory_need::MemoryNeed::estimate(
                988_000_000,
                None,
            )),
            device_gb: Some(2.0),
        },
    ];
    for s in &said {
        let (e, z) = (en.said(s), zh.said(s));
        assert_ne!(e, z, "{s:?}");
        assert!(
            z.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{z}"
        );
    }
    assert_eq!(
        en.said(&said[11]),
        "The worker sent a message this page could not read (not JSON)."
    );
    assert!(en
        .said(&said[10])
        .starts_with("The worker sent a `step` message"));
    // The engine's words for what only the model can refuse (RunError's).
    assert_eq!(
        en.said(&said[17]),
        "the text to score must hold at least one token of this vocabulary"
    );
    assert_eq!(
        en.said(&said[18]),
        "lane 2: the negative prompt (900 tokens) and up to 200 new tokens do not fit the \
         model's 1024 positions; shorten it or ask for fewer tokens"
    );
    // The worker's own words are shown as they came, in any language.
    let verbatim = Said::Verbatim("tokenizer.json: bad merges".into());
    assert_eq!(zh.said(&verbatim), "tokenizer.json: bad merges");
}

#[test]
fn the_workers_words_about_a_download_are_english_as_it_logs_them_and_chinese_otherwise() {
    let (en, zh) = (I18n::new("en"), I18n::new("zh-CN"));
    let url = || "https://huggingface.co/o/m/resolve/main/config.json".to_string();
    let repo = || "o/m".to_string();
    let index = || "model.safetensors.index.json".to_string();
    let broke = |total_mb, resuming| NetTrouble::BrokeOff {
        file: "model.safetensors".into(),
        loaded_mb: 210,
        total_mb,
        resuming,
    };
    let nets = [
        NetTrouble::ConnectionFailed,
        NetTrouble::HubAnswered {
            status: 503,
            text: "Service Unavailable".into(),
        },
        NetTrouble::HubAnswered {
            status: 429,
            text: String::new(),
        },
        broke(Some(353), true),
        broke(None, false),
    ];
    for n in &nets {
        check(&en.net_trouble(n), n.to_string(), zh.net_trouble(n));
    }
    let loads = [
        LoadTrouble::Unreachable { url: url() },
        LoadTrouble::GaveUp {
            why: nets[1].clone(),
            attempts: 5,
        },
        LoadTrouble::WaitTooLong {
            why: nets[2].clone(),
            seconds: 600,
        },
        LoadTrouble::Private {
            url: url(),
            status: 401,
        },
        LoadTrouble::Answered {
            url: url(),
            status: 418,
            text: "I'm a teapot".into(),
        },
        LoadTrouble::NoConfig { repo: repo() },
        LoadTrouble::NoTokenizer { repo: repo() },
        LoadTrouble::PickleOnly { repo: repo() },
        LoadTrouble::NoWeights {
            repo: repo(),
            index: index(),
        },
        LoadTrouble::ShardMissing {
            repo: repo(),
            index: index(),
            name: "model-00002-of-00002.safetensors".into(),
        },
        LoadTrouble::AlreadyLoading,
        LoadTrouble::NothingToLoad,
    ];
    for t in &loads {
        check(&en.load_trouble(t), t.to_string(), zh.load_trouble(t));
    }
    let notices = [
        WorkerNotice::StorageFull,
        WorkerNotice::StorageRefused,
        WorkerNotice::NoResume {
            file: "model.safetensors".into(),
        },
        WorkerNotice::PlainPrompts {
            why: "tokenizer_config.json: no chat_template".into(),
        },
    ];
    for n in &notices {
        check(&en.worker_notice(n), n.to_string(), zh.worker_notice(n));
    }
    let countdown = Retry::Countdown {
        why: nets[1].clone(),
        seconds: 2,
        attempt: 3,
        of: 5,
    };
    check(
        &en.retry(&countdown),
        "the hub answered 503 Service Unavailable; trying again in 2 s (try 3 of 5)".into(),
        zh.retry(&countdown),
    );
    let other_tab = Retry::OtherTab {
        file: "model.safetensors".into(),
    };
    check(
        &en.retry(&other_tab),
        "another tab is downloading model.safetensors; this one reads it from the cache when \
         it is done"
            .into(),
        zh.retry(&other_tab),
    );
    // Files' own faults stay in the worker's words, in any language.
    let other = LoadTrouble::Other {
        message: "config.json: n_embd is 0".into(),
    };
    assert_eq!(zh.load_trouble(&other), "config.json: n_embd is 0");
}

#[test]
fn the_lesson_writers_refusals_are_english_as_they_display_and_chinese_otherwise() {
    use crate::state::lesson_writer::WriterTrouble;
    let (en, zh) = (I18n::new("en"), I18n::new("zh-CN"));
    let invalid = lesson::parse(br#"{"version": 1, "title": "", "language": "en", "steps": []}"#)
        .unwrap_err();
    let all = [
        WriterTrouble::NoRun,
        WriterTrouble::RunDiffers,
        WriterTrouble::SharedRandomness,
        WriterTrouble::LibraryDefaults { lane: 3 },
        WriterTrouble::NoModelName,
        WriterTrouble::OtherModel {
            lesson: "bundled".into(),
            page: "Qwen/Qwen2.5-0.5B".into(),
        },
        WriterTrouble::TooLarge {
            kb: 2300,
            max_kb: 2097,
        },
        WriterTrouble::Full,
        WriterTrouble::Invalid(invalid),
    ];
    for t in all {
        let own = t.to_string();
        let said = Said::Writer(crate::rc_eq::RcEq::new(t));
        check(&en.said(&said), own, zh.said(&said));
    }
}
