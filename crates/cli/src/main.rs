//! `decode`: the page's engine on the command line.
//!
//! decode --model DIR --prompt TEXT [--config JSON]... [--force-ids ID,ID,...]
//!        (a --config may hold "model": "DIR", that lane's own model)
//!        [--force-text TEXT] [--negative-prompt TEXT] [--top N] [--shared-seed N]
//!        [--library-defaults] [--quantize q8_0] [--kl-against DIR] [--lens] [--json]
//! decode --model DIR --prompt TEXT --config JSON --samples N [--tokens N] [--json]

use ntl_cli::drift::{drift, LaneDrift};
use ntl_cli::lane_models::load_lane_models;
use ntl_cli::tree_text::tree_text;
use ntl_cli::visible::visible;
use ntl_decoding::fresh_seed::draw_fresh_seeds;
use ntl_decoding::{ConfigError, Defaults, Document, LaneRequest, Options, Run};
use ntl_engine::per_model::{run_on_models, LaneEngine};
use ntl_engine::{Precision, RunError, RunInput, TreeInput};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

/// A tree's depth when `--tokens` is not given: enough for a branch to
/// read as a phrase, few enough for 1,000 samples in under a minute.
const DEFAULT_TREE_TOKENS: usize = 8;

/// Everything that makes `decode` exit 2, as one line.
#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error(transparent)]
    Usage(#[from] UsageError),
    #[error("--config #{}: {source}", .lane + 1)]
    Config {
        lane: usize,
        #[source]
        source: ConfigError,
    },
    #[error(transparent)]
    Model(#[from] ntl_cli::model_dir::ModelDirError),
    #[error(transparent)]
    LaneModel(#[from] ntl_cli::lane_models::LaneModelError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("--kl-against: {0}")]
    Reference(ntl_cli::model_dir::ModelDirError),
    #[error(transparent)]
    Drift(#[from] ntl_cli::drift::DriftError),
    #[error("no random seed could be drawn for a lane without one ({0}): give each sampling lane a \"seed\"")]
    Randomness(getrandom::Error),
}

const USAGE: &str = "usage: decode --model DIR --prompt TEXT [--config JSON]... \
[--force-ids ID,ID,...] [--force-text TEXT] [--negative-prompt TEXT] [--top N] [--shared-seed N] \
[--library-defaults] [--quantize q8_0] [--kl-against DIR] [--lens] [--json]
       decode --model DIR --prompt TEXT --config JSON --samples N [--tokens N] [--json]

  --model DIR       folder with config.json, model.safetensors, tokenizer.json; or a
                    llama.cpp .gguf file (or a folder holding one) with tokenizer.json beside it
  --prompt TEXT     the prompt (may be empty)
  --config JSON     one lane: an HF generation_config object; repeat for more lanes
                    (none = one greedy lane; missing fields take HF defaults). \"model\": DIR
                    runs that lane on its own model (a folder or .gguf, as --model; each
                    distinct model loaded once, the lanes on one model batched together,
                    exactly the run that model makes alone); --model is then needed only
                    for lanes that name none
  --force-ids IDS   teacher forcing: every lane follows these ids and records its own distributions
  --force-text TEXT the same, from text
  --negative-prompt TEXT  guidance_scale lanes steer away from this text (HF negative_prompt_ids)
  --top N           candidates per step table (default 20)
  --shared-seed N   sampling lanes share one random draw per step
                    (a lane without a seed, or llama.cpp's -1, draws a new one each run;
                    the document's config and the text output show it)
  --library-defaults  lanes start from HF's library defaults, not the model's
                    generation_config.json (which HF's generate() starts from, as decode does)
  --quantize q8_0   8-bit at load: a safetensors model's matrices kept as Q8_0 blocks
                    (a quarter of f32's memory; probabilities differ slightly)
  --kl-against DIR  after the run, each lane's tokens fed again to DIR's model at full
                    precision (the same checkpoint): KL divergence per step and whether
                    the top tokens agree (with --json, the document's \"drift\" field)
  --lens            the logit lens: at each step of a lane that follows one sequence, what
                    the model would predict after each layer (the final norm and the head on
                    that layer's output); the last layer is the step's raw distribution
                    (with --json, each step's \"lens\" field)
  --samples N       a sample tree: the one --config (a sampling lane) run N times (1 to 1000),
                    each sample from its own random stream of the lane's seed, counted where
                    they branch, with each path's probability beside its share
  --tokens N        how many tokens a tree follows each sample for (1 to 16; default 8)
  --json            one JSON document (the page's export schema, or with --samples the
                    tree's; see README)";

/// A command line `decode` cannot take; each says what to give instead.
#[derive(Debug, thiserror::Error)]
enum UsageError {
    #[error("{USAGE}")]
    Help,
    #[error("{0} needs a value")]
    NoValue(&'static str),
    #[error("--force-ids: `{0}` is not a token id")]
    NotATokenId(String),
    #[error("{0} needs a whole number")]
    NotANumber(&'static str),
    #[error("unknown argument `{0}`\n{USAGE}")]
    Unknown(String),
    #[error("{0} is required\n{USAGE}")]
    Required(&'static str),
    #[error("give --force-ids or --force-text, not both")]
    ForcedTwice,
    #[error("--quantize: `{0}` is not a type this loads to; give q8_0")]
    NoSuchType(String),
    #[error(
        "--samples grows one lane's tree: give exactly one --config (a sampling lane), not {0}"
    )]
    TreeLanes(usize),
    #[error("--samples cannot be combined with {0}")]
    TreeWith(&'static str),
    #[error("--tokens is the depth of a tree: give --samples N too")]
    TokensWithoutSamples,
    #[error(
        "--kl-against compares one model's lanes with full precision: not with lanes on {0} models"
    )]
    DriftOfMany(usize),
}

struct Args {
    /// The model of lanes whose config names none.
    model: Option<PathBuf>,
    prompt: String,
    configs: Vec<String>,
    force_ids: Option<Vec<u32>>,
    force_text: Option<String>,
    negative_prompt: Option<String>,
    top: usize,
    shared_seed: Option<u64>,
    defaults: Defaults,
    precision: Precision,
    kl_against: Option<PathBuf>,
    json: bool,
    /// Record the logit lens of each one-sequence lane's steps.
    lens: bool,
    /// Grow a sample tree of this many samples instead of a run.
    samples: Option<usize>,
    tokens: Option<usize>,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, UsageError> {
    let mut model = None;
    let mut prompt = None;
    let mut a = Args {
        model: None,
        prompt: String::new(),
        configs: vec![],
        force_ids: None,
        force_text: None,
        negative_prompt: None,
        top: 20,
        shared_seed: None,
        defaults: Defaults::Model,
        precision: Precision::AsStored,
        kl_against: None,
        json: false,
        lens: false,
        samples: None,
        tokens: None,
    };
    while let Some(flag) = it.next() {
        let mut value = |name: &'static str| it.next().ok_or(UsageError::NoValue(name));
        match flag.as_str() {
            "--model" => model = Some(PathBuf::from(value("--model")?)),
            "--prompt" => prompt = Some(value("--prompt")?),
            "--config" => a.configs.push(value("--config")?),
            "--force-ids" => {
                let v = value("--force-ids")?;
                let ids = v
                    .split(',')
                    .map(|s| {
                        s.trim()
                            .parse::<u32>()
                            .map_err(|_| UsageError::NotATokenId(s.to_string()))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                a.force_ids = Some(ids);
            }
            "--force-text" => a.force_text = Some(value("--force-text")?),
            "--negative-prompt" => a.negative_prompt = Some(value("--negative-prompt")?),
            "--top" => {
                a.top = value("--top")?
                    .parse()
                    .map_err(|_| UsageError::NotANumber("--top"))?
            }
            "--shared-seed" => {
                a.shared_seed = Some(
                    value("--shared-seed")?
                        .parse()
                        .map_err(|_| UsageError::NotANumber("--shared-seed"))?,
                )
            }
            "--quantize" => {
                a.precision = match value("--quantize")?.to_ascii_lowercase().as_str() {
                    "q8_0" => Precision::Q8_0,
                    other => return Err(UsageError::NoSuchType(other.into())),
                }
            }
            "--kl-against" => a.kl_against = Some(PathBuf::from(value("--kl-against")?)),
            "--json" => a.json = true,
            "--lens" => a.lens = true,
            "--samples" => {
                a.samples = Some(
                    value("--samples")?
                        .parse()
                        .map_err(|_| UsageError::NotANumber("--samples"))?,
                )
            }
            "--tokens" => {
                a.tokens = Some(
                    value("--tokens")?
                        .parse()
                        .map_err(|_| UsageError::NotANumber("--tokens"))?,
                )
            }
            "--library-defaults" => a.defaults = Defaults::Library,
            "-h" | "--help" => return Err(UsageError::Help),
            other => return Err(UsageError::Unknown(other.to_string())),
        }
    }
    // Lanes may each name their model; one that names none needs --model.
    a.model = model;
    if a.model.is_none() && !a.configs.iter().any(|c| c.contains("\"model\"")) {
        return Err(UsageError::Required("--model"));
    }
    a.prompt = prompt.ok_or(UsageError::Required("--prompt"))?;
    if a.force_ids.is_some() && a.force_text.is_some() {
        return Err(UsageError::ForcedTwice);
    }
    if a.samples.is_some() {
        let other = [
            (a.force_ids.is_some(), "--force-ids"),
            (a.force_text.is_some(), "--force-text"),
            (a.negative_prompt.is_some(), "--negative-prompt"),
            (a.shared_seed.is_some(), "--shared-seed"),
            (a.kl_against.is_some(), "--kl-against"),
            (a.lens, "--lens"),
        ];
        if let Some((_, flag)) = other.iter().find(|(given, _)| *given) {
            return Err(UsageError::TreeWith(flag));
        }
        if a.configs.len() != 1 {
            return Err(UsageError::TreeLanes(a.configs.len()));
        }
    } else if a.tokens.is_some() {
        return Err(UsageError::TokensWithoutSamples);
    }
    Ok(a)
}

fn run(args: Args) -> Result<(), CliError> {
    let configs = if args.configs.is_empty() {
        vec!["{}".to_string()]
    } else {
        args.configs.clone()
    };
    let models = load_lane_models(args.model.as_deref(), &configs, args.precision)?;
    if args.kl_against.is_some() && models.engines.len() > 1 {
        return Err(UsageError::DriftOfMany(models.engines.len()).into());
    }
    // Read before the run, so a wrong folder is named before minutes of work.
    let reference = match &args.kl_against {
        Some(dir) => Some(ntl_cli::model_dir::load(dir).map_err(CliError::Reference)?),
        None => None,
    };
    let mut lanes = Vec::new();
    for (lane, text) in models.configs.iter().enumerate() {
        // Each lane starts from its own model's generation_config.json.
        let engine = &models.engines[models.on_model[lane]].1;
        let model_defaults = engine
            .info()
            .generation_defaults
            .clone()
            .unwrap_or_default();
        let config = model_defaults
            .lane_config(text, args.defaults)
            .map_err(|source| CliError::Config { lane, source })?;
        lanes.push(LaneRequest {
            config,
            forced_ids: args.force_ids.clone(),
        });
    }
    // A lane without a seed gets a new one each run, as in HF and llama.cpp;
    // the document's config holds it, so the run can be repeated.
    let drawn = if args.shared_seed.is_none() && args.force_text.is_none() {
        draw_fresh_seeds(&mut lanes, getrandom::u32).map_err(CliError::Randomness)?
    } else {
        vec![None; lanes.len()]
    };
    if let Some(samples) = args.samples {
        let input = TreeInput {
            prompt: args.prompt,
            prompt_ids: None,
            lane: lanes.remove(0),
            samples,
            tokens: args.tokens.unwrap_or(DEFAULT_TREE_TOKENS),
        };
        let engine = &models.engines[models.on_model[0]].1;
        let doc = engine.tree(input, |_| ControlFlow::Continue(()))?;
        if args.json {
            println!(
                "{}",
                serde_json::to_string(&doc).expect("a tree serialises")
            );
        } else {
            if let Some(seed) = drawn[0] {
                println!("seed {seed}, drawn for this run (\"seed\": {seed} repeats it)");
            }
            print!("{}", tree_text(&doc));
        }
        return Ok(());
    }
    let input = RunInput {
        prompt: args.prompt,
        prompt_ids: None,
        lanes,
        forced_text: args.force_text,
        negative_prompt: args.negative_prompt,
        options: Options {
            top_n: args.top,
            shared_seed: args.shared_seed,
            negative_prompt: None,
            full_prompt: None,
            lens: args.lens,
        },
    };
    let on: Vec<LaneEngine> = models
        .engines
        .iter()
        .map(|(name, engine)| LaneEngine {
            engine,
            name: name.clone(),
        })
        .collect();
    let doc = run_on_models(&on, &models.on_model, input, |_| ControlFlow::Continue(()))?;
    let drift = match &reference {
        Some(reference) => Some(drift(&models.engines[0].1, reference, &doc)?),
        None => None,
    };
    if args.json {
        let mut json = serde_json::to_value(&doc).expect("a document serialises");
        if let Some(drift) = &drift {
            json["drift"] = serde_json::to_value(drift).expect("drift serialises");
        }
        println!("{json}");
    } else {
        print!("{}", human(&doc, &drawn));
        if let (Some(drift), Some(dir)) = (&drift, &args.kl_against) {
            print!("{}", drift_lines(drift, &dir.display().to_string()));
        }
    }
    Ok(())
}

/// Each lane's drift from full precision, a line each.
fn drift_lines(drift: &[LaneDrift], reference: &str) -> String {
    let mut out = format!("\nagainst full precision ({reference}):\n");
    for (lane, d) in drift.iter().enumerate() {
        out += &format!(
            "  lane {}: KL mean {:.5}, max {:.5} nats over {} steps; top token the same at {} of {}\n",
            lane + 1,
            d.mean_kl,
            d.max_kl,
            d.steps,
            d.top_agrees,
            d.steps
        );
    }
    out
}

fn human(doc: &Document, drawn: &[Option<u32>]) -> String {
    let mut out = String::new();
    if doc.prompt_cropped > 0 {
        out += &format!(
            "note: the prompt was cropped by {} tokens from the left to fit the context\n",
            doc.prompt_cropped
        );
    }
    for (i, run) in doc.runs.iter().enumerate() {
        out += &format!(
            "== lane {} · {} · {} tokens · stop: {}\n",
            i + 1,
            run.mode,
            run.token_ids.len(),
            run.stop_reason.as_str()
        );
        if let Some(seed) = drawn.get(i).copied().flatten() {
            out += &format!("   seed {seed}, drawn for this run (\"seed\": {seed} repeats it)\n");
        }
        if let Some(m) = &run.model {
            out += &format!(
                "   on {} (its tokenizer reads the prompt as {} tokens)\n",
                m.name,
                m.prompt_ids.len()
            );
        }
        out += &format!("{}{}\n", doc.prompt, run.text);
        out += &lane_table(run);
        if run.sequences.len() > 1 || run.sequences.first().is_some_and(|s| s.score.is_some()) {
            for (k, s) in run.sequences.iter().enumerate() {
                out += &format!(
                    "   sequence {} score {:.4}: {:?}\n",
                    k + 1,
                    s.score.unwrap_or(f32::NAN),
                    s.text
                );
            }
        }
        out.push('\n');
    }
    out
}

fn lane_table(run: &Run) -> String {
    let mut out = format!(
        "   {:>4}  {:<16} {:>7} {:>7} {:>6} {:>7}  {}\n",
        "step", "token", "p raw", "p", "kept", "entropy", "runners-up"
    );
    for (s, step) in run.steps.iter().enumerate() {
        let others: Vec<String> = step
            .top
            .iter()
            .filter(|c| c.id != step.token_id)
            .take(3)
            .map(|c| format!("{} {:.2}", visible(&c.token), c.prob))
            .collect();
        out += &format!(
            "   {:>4}  {:<16} {:>7.4} {:>7.4} {:>6} {:>7.3}  {}\n",
            s + 1,
            visible(&step.token),
            step.chosen_raw_prob,
            step.chosen_prob,
            step.kept,
            step.entropy,
            others.join(" | ")
        );
        for layer in step.lens.iter().flatten() {
            let top: Vec<String> = layer
                .top
                .iter()
                .take(3)
                .map(|t| format!("{} {:.2}", visible(&t.token), t.prob))
                .collect();
            out += &format!(
                "         layer {:>2}: {:<40} chosen {:.4} (#{})\n",
                layer.layer,
                top.join(" | "),
                layer.chosen_prob,
                layer.chosen_rank
            );
        }
    }
    out
}

fn main() -> ExitCode {
    let result = parse_args(std::env::args().skip(1))
        .map_err(CliError::Usage)
        .and_then(run);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("decode: {e}");
            ExitCode::from(2)
        }
    }
}
