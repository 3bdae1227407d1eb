//! The watermark detector over the run on screen. Every lane's generated
//! tokens are scored with one key — the first watermark among the lanes'
//! configs — so a lane without the watermark shows what unmarked text scores
//! under that key (HF's `WatermarkDetector`, `crates/decoding/src/watermark.rs`).

use crate::lanes::LANES;
use crate::rc_eq::RcEq;
use ntl_decoding::watermark::{Detection, Watermark, WatermarkConfig};
use ntl_decoding::Document;

/// HF's default threshold: above this z-score a text counts as watermarked.
pub const Z_THRESHOLD: f64 = 3.0;

#[derive(Debug, Clone, PartialEq)]
pub struct LaneCheck {
    /// The lane whose `watermarking_config` is the key.
    pub key_lane: usize,
    /// Whether this lane generated with that key's green lists (its bias may differ).
    pub marked: bool,
    pub detection: Detection,
    /// Green (`Some(true)`), red, or unscored, per generated token.
    pub green: RcEq<Vec<Option<bool>>>,
    /// The share of green tokens unmarked text has.
    pub greenlist_ratio: f64,
}

/// One check per lane that ran, when some lane carries a watermark.
pub fn check(doc: &Document, vocab: usize) -> [Option<LaneCheck>; LANES] {
    let mut out: [Option<LaneCheck>; LANES] = Default::default();
    let key = doc.runs.iter().enumerate().find_map(|(i, r)| {
        let c = r.config.transformers()?.watermarking_config.clone()?;
        Some((i, c))
    });
    let Some((key_lane, key_config)) = key else {
        return out;
    };
    let Ok(watermark) = Watermark::new(key_config.clone()) else {
        return out;
    };
    let width = key_config.context_width.max(1) as usize;
    // Each generated token is scored with the tokens before it, the prompt's included.
    let tail = &doc.prompt_ids[doc.prompt_ids.len().saturating_sub(width)..];
    for (slot, run) in out.iter_mut().zip(&doc.runs) {
        if run.token_ids.is_empty() {
            continue;
        }
        let mut ids = tail.to_vec();
        ids.extend(&run.token_ids);
        let detection = watermark.detect(&ids, None, vocab, Z_THRESHOLD);
        let green = detection.green[tail.len()..].to_vec();
        *slot = Some(LaneCheck {
            key_lane,
            marked: run
                .config
                .transformers()
                .and_then(|c| c.watermarking_config.as_ref())
                .is_some_and(|c| same_green_lists(c, &key_config)),
            detection,
            green: RcEq::new(green),
            greenlist_ratio: key_config.greenlist_ratio,
        });
    }
    out
}

/// Green lists depend on everything but the bias.
fn same_green_lists(a: &WatermarkConfig, b: &WatermarkConfig) -> bool {
    (
        a.greenlist_ratio,
        a.hashing_key,
        a.seeding_scheme,
        a.context_width,
    ) == (
        b.greenlist_ratio,
        b.hashing_key,
        b.seeding_scheme,
        b.context_width,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ntl_decoding::record::Run;
    use ntl_decoding::{GenerationConfig, Mode, StopReason};

    fn run(config: GenerationConfig, token_ids: Vec<u32>) -> Run {
        Run {
            config: config.into(),
            mode: Mode::Greedy,
            token_ids,
            text: String::new(),
            stop_reason: StopReason::MaxNewTokens,
            sequences: vec![],
            steps: vec![],
            model: None,
        }
    }

    #[test]
    fn every_lane_is_scored_with_the_first_lanes_key_and_green_text_stands_out() {
        let wm = WatermarkConfig::default();
        let key = Watermark::new(wm.clone()).unwrap();
        // A text of green tokens only, as a strong watermark writes.
        let mut ids = vec![464u32];
        for _ in 0..20 {
            ids.push(key.greenlist(&ids, 1000)[0]);
        }
        let marked = GenerationConfig {
            watermarking_config: Some(wm),
            ..Default::default()
        };
        let doc = Document {
            prompt_ids: vec![1, 464],
            prompt: String::new(),
            prompt_cropped: 0,
            runs: vec![
                run(GenerationConfig::default(), (0..20).collect()),
                run(marked, ids[1..].to_vec()),
            ],
        };
        let checks = check(&doc, 1000);
        let (plain, green) = (checks[0].as_ref().unwrap(), checks[1].as_ref().unwrap());
        assert_eq!((plain.key_lane, plain.marked), (1, false));
        assert!(green.marked);
        assert_eq!(
            green.detection.num_tokens_scored, 20,
            "every generated token"
        );
        assert_eq!(green.green.len(), 20);
        assert!(green.green.iter().all(|g| *g == Some(true)));
        assert!(green.detection.prediction && !plain.detection.prediction);
        assert!(checks[2].is_none());
    }

    #[test]
    fn no_watermark_no_check() {
        let doc = Document {
            prompt_ids: vec![1],
            prompt: String::new(),
            prompt_cropped: 0,
            runs: vec![run(GenerationConfig::default(), vec![2, 3])],
        };
        assert!(check(&doc, 1000).iter().all(Option::is_none));
    }
}
