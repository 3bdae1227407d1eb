//! The what-if sandbox: one next-token distribution held still while knobs
//! move over it. It builds a sampling lane's own processors from the knobs and
//! records the result as a lane's step is recorded, so every number it shows
//! is the engine's, bit for bit.

use crate::config::{GenerationConfig, ValidConfig};
use crate::config_error::ConfigError;
use crate::knob::Knob;
use crate::observe::{observe, step_record, Input, StepInfo};
use crate::processors::{Context, Pipeline};
use crate::record::Step;
use crate::vocab::Vocab;

/// The knobs the sandbox offers, in the order it shows them (HF's order of
/// application): the repetition penalty, then the sampling warpers.
pub fn knobs() -> impl Iterator<Item = Knob> {
    std::iter::once(Knob::RepetitionPenalty).chain(Knob::WARPERS.iter().copied())
}

/// The most numbers a typed toy distribution may hold: enough for any
/// lesson, few enough that a table of them stays a table.
pub const MAX_TOY_LOGITS: usize = 1000;

/// The kind of lane a step came from, which decides how many tokens each
/// warper must leave.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Keeping {
    /// A sampling lane (or typed logits): at least one token.
    #[default]
    One,
    /// A beam lane with these end-of-text ids: `len(eos) + 1` tokens per
    /// beam, HF's `min_tokens_to_keep` when beams sample, so that a beam
    /// can go on past an eos.
    PerBeam { eos_token_ids: Vec<u32> },
}

/// A sampling configuration with only `settings` set: every knob left out is
/// off — `top_k` too, which HF would otherwise set to 50, so that one knob
/// can be watched at a time. Values are checked as a lane's are, with the same
/// messages. `keeping` makes it a beam-sampling configuration for a beam
/// lane's step, so its warpers leave what that lane's would.
pub fn config(settings: &[(Knob, f64)], keeping: &Keeping) -> Result<ValidConfig, ConfigError> {
    let mut map = serde_json::Map::new();
    map.insert("do_sample".into(), true.into());
    map.insert(Knob::TopK.name().into(), 0.into());
    if let Keeping::PerBeam { eos_token_ids } = keeping {
        // Any beam count gives the same warpers; the pipeline reads the
        // rule off the mode and the eos ids, as it does for the lane.
        map.insert("num_beams".into(), 2.into());
        if !eos_token_ids.is_empty() {
            map.insert("eos_token_id".into(), eos_token_ids.clone().into());
        }
    }
    for &(knob, value) in settings {
        // An integer knob given a whole number is an integer, so `top_k: 3`
        // reads as a lane's JSON would; a fraction stays one and is refused.
        let json = if knob == Knob::TopK && value.fract() == 0.0 && value.abs() < 1e15 {
            serde_json::Value::from(value as i64)
        } else {
            serde_json::Value::from(value)
        };
        map.insert(knob.name().into(), json);
    }
    GenerationConfig::from_value(serde_json::Value::Object(map))?.validate()
}

/// The distribution after the knobs of `cfg`: the funnel, the kept count and
/// entropy, and a table of the `top_n` most probable tokens after the knobs
/// (filled up with the best removed ones). `ctx` is the text before the
/// step, for the repetition penalty; `input` is what the knobs act on, as in
/// the lane's own loop: raw logits, or log-probabilities for beam search.
/// The table marks `chosen` — the token a lane picked there — or, without
/// one, the most probable token after the knobs.
///
/// The lesson's five logits with `top_p` 0.9: softmax gives 0.631, 0.232,
/// 0.094, …, and the nucleus keeps the first three (HF keeps the token that
/// crosses 0.9), renormalised.
///
/// ```
/// use ntl_decoding::observe::Input;
/// use ntl_decoding::processors::Context;
/// use ntl_decoding::sandbox::{config, parse_logits, toy_vocab, what_if, Keeping};
/// use ntl_decoding::Knob;
///
/// let logits = parse_logits("2, 1, 0.1, -1, -2")?;
/// let cfg = config(&[(Knob::TopP, 0.9)], &Keeping::One)?;
/// let step = what_if(&logits, Context::new(&[], 0), None, Input::Logits, &cfg, &toy_vocab(5), 5);
/// assert_eq!(step.kept, 3);
/// assert_eq!(step.token, "a", "no lane picked: the most probable token is marked");
/// let raw: Vec<f32> = step.top.iter().map(|c| c.raw_prob).collect();
/// assert!((raw[0] - 0.6307).abs() < 1e-4 && (raw[1] - 0.2320).abs() < 1e-4);
/// let kept: f32 = step.top.iter().map(|c| c.prob).sum();
/// assert!((kept - 1.0).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn what_if(
    logits: &[f32],
    ctx: Context,
    chosen: Option<u32>,
    input: Input,
    cfg: &ValidConfig,
    vocab: &Vocab,
    top_n: usize,
) -> Step {
    let pipeline = Pipeline::for_config(cfg, ctx.prompt_len);
    let obs = observe(&pipeline, &ctx, logits, input);
    let chosen = chosen.unwrap_or_else(|| {
        obs.probs
            .iter()
            .enumerate()
            .fold((0, f32::NEG_INFINITY), |best, (i, &p)| {
                if p > best.1 {
                    (i, p)
                } else {
                    best
                }
            })
            .0 as u32
    });
    let info = StepInfo {
        logits,
        chosen,
        draw: None,
        forced: false,
        top_n,
    };
    step_record(&obs, info, vocab)
}

/// Why a typed list of logits cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ToyError {
    #[error("type at least two numbers, separated by commas (e.g. 2, 1, 0.1, -1, -2)")]
    TooFew,
    #[error("at most {MAX_TOY_LOGITS} numbers, please")]
    TooMany,
    #[error("number {position} (`{text}`) is not a number")]
    NotANumber { position: usize, text: String },
}

/// Logits typed as a list: numbers separated by commas, spaces or new lines
/// (`2, 1, 0.1, -1, -2`); `-inf` is a token no knob could ever pick.
pub fn parse_logits(text: &str) -> Result<Vec<f32>, ToyError> {
    let parts: Vec<&str> = text
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() > MAX_TOY_LOGITS {
        return Err(ToyError::TooMany);
    }
    let logits = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let normalised = p.replace('−', "-");
            match normalised.parse::<f32>() {
                Ok(v) if !v.is_nan() && v != f32::INFINITY => Ok(v),
                _ => Err(ToyError::NotANumber {
                    position: i + 1,
                    text: p.to_string(),
                }),
            }
        })
        .collect::<Result<Vec<f32>, ToyError>>()?;
    if logits.len() < 2 {
        return Err(ToyError::TooFew);
    }
    Ok(logits)
}

/// Names for a toy distribution's tokens, as the lessons write them: a, b, c,
/// … z, then aa, ab, ….
pub fn toy_vocab(n: usize) -> Vocab {
    let labels: Vec<String> = (0..n).map(toy_label).collect();
    Vocab::from_byte_level(&labels, |_| true)
}

fn toy_label(i: usize) -> String {
    let letter = |k: usize| char::from(b'a' + (k % 26) as u8);
    if i < 26 {
        letter(i).to_string()
    } else {
        format!("{}{}", toy_label(i / 26 - 1), letter(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LESSON: [f32; 5] = [2.0, 1.0, 0.1, -1.0, -2.0];

    /// The lesson's logits after `settings`, as the sandbox records them.
    fn lesson_step(settings: &[(Knob, f64)]) -> Step {
        let cfg = config(settings, &Keeping::One).unwrap();
        let ctx = Context::new(&[], 0);
        what_if(&LESSON, ctx, None, Input::Logits, &cfg, &toy_vocab(5), 20)
    }

    fn probs(settings: &[(Knob, f64)]) -> Vec<f32> {
        let step = lesson_step(settings);
        let mut by_id = vec![f32::NAN; 5];
        for c in &step.top {
            by_id[c.id as usize] = c.prob;
        }
        by_id
    }

    /// softmax(z / t) over the kept tokens, in f64.
    fn reference(t: f64, kept: usize) -> Vec<f32> {
        let e: Vec<f64> = LESSON
            .iter()
            .take(kept)
            .map(|&z| (z as f64 / t).exp())
            .collect();
        let sum: f64 = e.iter().sum();
        (0..5)
            .map(|i| e.get(i).map_or(0.0, |x| (x / sum) as f32))
            .collect()
    }

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-6)
    }

    #[test]
    fn the_lessons_five_logits_at_three_temperatures() {
        for t in [0.5, 1.0, 2.0] {
            let got = probs(&[(Knob::Temperature, t)]);
            assert!(close(&got, &reference(t, 5)), "t = {t}: {got:?}");
        }
        // The lesson's printed numbers at temperature 1.
        let got = probs(&[]);
        let printed = [0.6307, 0.2320, 0.0943, 0.0314, 0.0116];
        assert!(
            got.iter().zip(printed).all(|(x, y)| (x - y).abs() < 1e-4),
            "{got:?}"
        );
    }

    #[test]
    fn top_k_3_and_top_p_0_9_keep_the_lessons_three_tokens() {
        let top_k = probs(&[(Knob::TopK, 3.0)]);
        assert!(close(&top_k, &reference(1.0, 3)), "{top_k:?}");
        // 0.631 + 0.232 = 0.863 < 0.9, so top-p needs the third token too.
        let top_p = probs(&[(Knob::TopP, 0.9)]);
        assert!(close(&top_p, &reference(1.0, 3)), "{top_p:?}");
        let both = probs(&[(Knob::Temperature, 0.5), (Knob::TopK, 3.0)]);
        assert!(close(&both, &reference(0.5, 3)), "{both:?}");
    }

    #[test]
    fn a_beam_lanes_step_keeps_one_token_more_than_its_eos_ids_as_the_lane_does() {
        // The lesson's distribution as a beam's log-probabilities.
        let total: f32 = LESSON.iter().map(|z| z.exp()).sum();
        let log_probs: Vec<f32> = LESSON.iter().map(|z| z - total.ln()).collect();
        let kept = |keeping: Keeping, settings: &[(Knob, f64)]| {
            let cfg = config(settings, &keeping).unwrap();
            let ctx = Context::new(&[], 0);
            let step = what_if(
                &log_probs,
                ctx,
                None,
                Input::LogProbs,
                &cfg,
                &toy_vocab(5),
                20,
            );
            step.kept
        };
        let beams = |eos: &[u32]| Keeping::PerBeam {
            eos_token_ids: eos.to_vec(),
        };
        // top-p 0.5 alone leaves "a" (0.63); a beam with two eos ids keeps three.
        let top_p = [(Knob::TopP, 0.5)];
        assert_eq!(kept(Keeping::One, &top_p), 1);
        assert_eq!(kept(beams(&[3]), &top_p), 2);
        assert_eq!(kept(beams(&[3, 4]), &top_p), 3);
        // top-k is raised to the same floor; min-p and typical keep it too.
        assert_eq!(kept(beams(&[3, 4]), &[(Knob::TopK, 1.0)]), 3);
        assert_eq!(kept(beams(&[3, 4]), &[(Knob::MinP, 0.9)]), 3);
        assert_eq!(kept(beams(&[3, 4]), &[(Knob::TypicalP, 0.01)]), 3);
        // No eos: the one token a sampling lane keeps.
        assert_eq!(kept(beams(&[]), &top_p), 1);
    }

    #[test]
    fn the_funnel_names_each_knob_in_hfs_order() {
        let step = lesson_step(&[
            (Knob::TopP, 0.9),
            (Knob::Temperature, 0.7),
            (Knob::TopK, 4.0),
        ]);
        let names: Vec<&str> = step.funnel.iter().map(|f| f.name.name()).collect();
        assert_eq!(names, ["model", "temperature", "top_k", "top_p"]);
        assert_eq!(step.token_id, 0, "without a lane's pick, the likeliest");
        assert_eq!(step.top.len(), 5, "removed tokens fill the table");
        assert!(step.top[3..].iter().all(|c| c.removed_by.is_some()));
    }

    #[test]
    fn the_repetition_penalty_looks_at_the_context() {
        let cfg = config(&[(Knob::RepetitionPenalty, 2.0)], &Keeping::One).unwrap();
        let ctx = Context::new(&[0, 3], 1);
        let step = what_if(
            &LESSON,
            ctx,
            Some(1),
            Input::Logits,
            &cfg,
            &toy_vocab(5),
            20,
        );
        let logit_after = |id: u32| {
            step.top
                .iter()
                .find(|c| c.id == id)
                .and_then(|c| c.score)
                .unwrap()
        };
        // HF divides a positive logit and multiplies a negative one.
        assert_eq!(logit_after(0), 1.0);
        assert_eq!(logit_after(3), -2.0);
        assert_eq!(logit_after(1), 1.0);
        assert_eq!(step.token_id, 1, "the lane's pick is the one marked");
    }

    #[test]
    fn bad_knobs_are_refused_with_the_lanes_messages() {
        let e = config(&[(Knob::Temperature, 0.0)], &Keeping::One).unwrap_err();
        assert_eq!(e.knob(), Some(Knob::Temperature));
        let e = config(&[(Knob::TopK, 2.5)], &Keeping::One).unwrap_err();
        assert_eq!(e.knob(), Some(Knob::TopK));
        let e = config(&[(Knob::TopP, 1.5)], &Keeping::One).unwrap_err();
        assert_eq!(e.knob(), Some(Knob::TopP));
    }

    #[test]
    fn typed_logits_parse_with_commas_spaces_and_a_typographic_minus() {
        assert_eq!(parse_logits("2, 1, 0.1, -1, -2"), Ok(LESSON.to_vec()));
        assert_eq!(parse_logits("2 1\n0.1 −1 -2"), Ok(LESSON.to_vec()));
        assert_eq!(parse_logits("1, -inf"), Ok(vec![1.0, f32::NEG_INFINITY]));
        assert_eq!(parse_logits("3"), Err(ToyError::TooFew));
        assert_eq!(
            parse_logits("1, two, 3"),
            Err(ToyError::NotANumber {
                position: 2,
                text: "two".into()
            })
        );
        assert!(matches!(
            parse_logits("1, NaN"),
            Err(ToyError::NotANumber { .. })
        ));
        assert!(matches!(
            parse_logits("1, inf"),
            Err(ToyError::NotANumber { .. })
        ));
        assert_eq!(parse_logits(&"1 ".repeat(1001)), Err(ToyError::TooMany));
    }

    #[test]
    fn toy_tokens_are_named_as_the_lessons_name_them() {
        let v = toy_vocab(30);
        assert_eq!(v.display(0), "a");
        assert_eq!(v.display(25), "z");
        assert_eq!(v.display(26), "aa");
        assert_eq!(v.display(29), "ad");
    }
}
