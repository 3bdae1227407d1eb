//! Trees on a small fake model whose logits are a fixed function of the
//! prefix: every sample's path is what its own stream draws alone.

use super::*;
use crate::config::GenerationConfig;
use crate::draws::{pick_by_cdf, Draws};
use crate::model::{Exit, Forward, LanguageModel, ModelError};
use crate::observe::{observe, Input};
use crate::processors::{Context, Pipeline};
use crate::record::StopReason;
use crate::vocab::Vocab;
use std::sync::Arc;

const V: usize = 6;
const EOS: u32 = 5;

/// Logits depend only on the ids so far; the cache is each row's ids.
struct Fake;

fn fake_logits(ids: &[u32]) -> Vec<f32> {
    let h = ids
        .iter()
        .fold(7u32, |h, &i| h.wrapping_mul(31).wrapping_add(i));
    (0..V as u32)
        .map(|t| ((h.wrapping_add(t * 13)) % 17) as f32 * 0.25 - if t == EOS { 1.5 } else { 0.0 })
        .collect()
}

impl LanguageModel for Fake {
    type Cache = Vec<Vec<u32>>;
    fn vocab_size(&self) -> usize {
        V
    }
    fn hidden_size(&self) -> usize {
        2
    }
    fn n_positions(&self) -> usize {
        64
    }
    fn n_layers(&self) -> usize {
        2
    }
    fn tied_head(&self) -> bool {
        true
    }
    fn prefill_with_exits(
        &self,
        ids: &[u32],
        _: &[Exit],
    ) -> Result<Forward<Self::Cache>, ModelError> {
        Ok(Forward {
            logits: fake_logits(ids),
            hidden: vec![0.0; 2 * ids.len()],
            exits: vec![],
            cache: vec![ids.to_vec()],
        })
    }
    fn step_with_exits(
        &self,
        cache: &Self::Cache,
        tokens: &[u32],
        _: &[Exit],
    ) -> Result<Forward<Self::Cache>, ModelError> {
        let cache: Vec<Vec<u32>> = cache
            .iter()
            .zip(tokens)
            .map(|(ids, &t)| [ids.as_slice(), &[t]].concat())
            .collect();
        Ok(Forward {
            logits: cache.iter().flat_map(|ids| fake_logits(ids)).collect(),
            hidden: vec![0.0; 2 * tokens.len()],
            exits: vec![],
            cache,
        })
    }
    fn select(&self, cache: &Self::Cache, rows: &[usize]) -> Result<Self::Cache, ModelError> {
        Ok(rows.iter().map(|&r| cache[r].clone()).collect())
    }
}

fn vocab() -> Arc<Vocab> {
    let tokens: Vec<String> = ["a", "b", "c", "d", "e", "<eos>"]
        .map(String::from)
        .to_vec();
    Arc::new(Vocab::from_byte_level(&tokens, |i| i == EOS as usize))
}

fn config(json: serde_json::Value) -> crate::ValidConfig {
    serde_json::from_value::<GenerationConfig>(json)
        .unwrap()
        .validate()
        .unwrap()
        .with_model_eos(&[EOS])
}

fn sampling() -> crate::ValidConfig {
    config(serde_json::json!({"do_sample": true, "temperature": 0.8, "top_k": 0, "seed": 42}))
}

const PROMPT: [u32; 2] = [1, 2];

fn grow(request: TreeRequest) -> SampleTree {
    let mut run = TreeRun::start(Fake, vocab(), &PROMPT, request).unwrap();
    while run.advance().unwrap() {}
    run.finish()
}

fn request(samples: usize, tokens: usize) -> TreeRequest {
    TreeRequest {
        config: sampling(),
        samples,
        tokens,
    }
}

/// A sample's path, drawn alone: its stream, one uniform per step, the
/// lane's knobs on the fake's logits.
fn alone(cfg: &crate::ValidConfig, k: u64, tokens: usize) -> Vec<u32> {
    let pipeline = Pipeline::for_config(cfg, PROMPT.len());
    let mut draws = Draws::stream(cfg.seed, k);
    let mut ids = PROMPT.to_vec();
    for _ in 0..tokens {
        let obs = observe(
            &pipeline,
            &Context::new(&ids, PROMPT.len()),
            &fake_logits(&ids),
            Input::Logits,
        );
        let cum: Vec<f64> = obs
            .probs
            .iter()
            .scan(0.0, |s, &p| {
                *s += p as f64;
                Some(*s)
            })
            .collect();
        let t = pick_by_cdf(&cum, draws.uniform()) as u32;
        ids.push(t);
        if t == EOS {
            break;
        }
    }
    ids[PROMPT.len()..].to_vec()
}

fn path(tree: &SampleTree, leaf: u32) -> Vec<u32> {
    let mut out = vec![];
    let mut at = Some(leaf);
    while let Some(n) = at {
        out.push(tree.nodes[n as usize].token_id);
        at = tree.nodes[n as usize].parent;
    }
    out.reverse();
    out
}

#[test]
fn every_samples_path_is_what_its_own_stream_draws_alone() {
    // Hot enough for the samples to spread over many prefixes.
    let cfg =
        config(serde_json::json!({"do_sample": true, "temperature": 3.0, "top_k": 0, "seed": 42}));
    let tree = grow(TreeRequest {
        config: cfg.clone(),
        samples: 1000,
        tokens: 6,
    });
    assert!(tree.complete);
    assert_eq!(tree.leaves.len(), 1000);
    for (k, &leaf) in tree.leaves.iter().enumerate() {
        assert_eq!(path(&tree, leaf), alone(&cfg, k as u64, 6), "sample {k}");
    }
    // Some level was fed in more than one pass (256 rows a pass here).
    let widest = (1..6).map(|d| {
        tree.nodes
            .iter()
            .filter(|n| n.depth == d && n.stop.is_none())
            .count()
    });
    assert!(widest.max().unwrap() > 256);
}

#[test]
fn counts_add_up_to_the_samples_at_every_level_and_through_every_parent() {
    let tree = grow(request(1000, 4));
    let first: u32 = tree
        .nodes
        .iter()
        .filter(|n| n.parent.is_none())
        .map(|n| n.count)
        .sum();
    assert_eq!(first, 1000);
    for (i, node) in tree.nodes.iter().enumerate() {
        let children: Vec<_> = tree
            .nodes
            .iter()
            .filter(|c| c.parent == Some(i as u32))
            .collect();
        let ended = tree.leaves.iter().filter(|&&l| l == i as u32).count() as u32;
        let below: u32 = children.iter().map(|c| c.count).sum();
        assert_eq!(below + ended, node.count, "node {i}");
        assert!(
            children.windows(2).all(|w| w[0].count >= w[1].count),
            "most-drawn first"
        );
        assert_eq!(node.share, node.count as f64 / 1000.0);
        if let Some(p) = node.parent {
            let parent = &tree.nodes[p as usize];
            assert_eq!(node.depth, parent.depth + 1);
            assert_eq!(node.path_prob, parent.path_prob * node.prob as f64);
            assert!(p < i as u32, "parents come first");
        }
    }
    // Rows: one per distinct prefix fed, never one per sample and token.
    let fed = tree
        .nodes
        .iter()
        .filter(|n| n.depth < 4 && n.stop.is_none())
        .count();
    assert_eq!(tree.rows, 1 + fed);
    assert!(tree.rows < 1000 * 3);
}

#[test]
fn the_same_seed_grows_the_same_tree_and_another_seed_another() {
    let a = grow(request(200, 4));
    assert_eq!(a, grow(request(200, 4)));
    let mut other = request(200, 4);
    other.config.seed = 43;
    assert_ne!(a.leaves.iter().map(|&l| path(&a, l)).collect::<Vec<_>>(), {
        let b = grow(other);
        b.leaves.iter().map(|&l| path(&b, l)).collect::<Vec<_>>()
    });
}

#[test]
fn shares_settle_near_the_probability_of_each_path() {
    let tree = grow(request(1000, 2));
    for node in tree.nodes.iter().filter(|n| n.path_prob > 0.05) {
        // 4.5 standard deviations of a share of 1,000 draws.
        let sd = (node.path_prob * (1.0 - node.path_prob) / 1000.0).sqrt();
        assert!(
            (node.share - node.path_prob).abs() < 4.5 * sd,
            "{} vs {}",
            node.share,
            node.path_prob
        );
    }
}

#[test]
fn a_sample_that_writes_eos_ends_there_and_its_branch_says_so() {
    let tree = grow(request(500, 6));
    let eos: Vec<_> = tree.nodes.iter().filter(|n| n.token_id == EOS).collect();
    assert!(!eos.is_empty(), "the fake writes eos sometimes");
    assert!(eos.iter().all(|n| n.stop == Some(StopReason::Eos)));
    assert!(tree.nodes.iter().all(|n| n
        .parent
        .is_none_or(|p| tree.nodes[p as usize].stop.is_none())));
    // Branches cut by the tree's depth would go on: no stop.
    assert!(tree
        .nodes
        .iter()
        .filter(|n| n.depth == 6 && n.token_id != EOS)
        .all(|n| n.stop.is_none()));
}

#[test]
fn a_knob_that_removes_a_token_keeps_every_sample_off_it() {
    let mut r = request(400, 3);
    r.config = config(serde_json::json!({"do_sample": true, "top_k": 2, "seed": 1}));
    let tree = grow(r);
    let mut by_parent = std::collections::BTreeMap::<Option<u32>, usize>::new();
    for n in &tree.nodes {
        *by_parent.entry(n.parent).or_default() += 1;
        assert!(n.prob > 0.0);
    }
    assert!(
        by_parent.values().all(|&c| c <= 2),
        "top-k 2: at most two branches"
    );
}

#[test]
fn a_cancelled_tree_keeps_what_it_grew_and_says_it_is_incomplete() {
    let mut run = TreeRun::start(Fake, vocab(), &PROMPT, request(300, 6)).unwrap();
    assert!(run.advance().unwrap());
    run.cancel();
    assert!(!run.advance().unwrap());
    let tree = run.finish();
    assert!(!tree.complete);
    assert!(tree.leaves.iter().all(|&l| (l as usize) < tree.nodes.len()));
    assert!(tree
        .nodes
        .iter()
        .any(|n| n.stop == Some(StopReason::Cancelled)));
}

#[test]
fn progress_runs_from_the_first_level_to_done() {
    let mut run = TreeRun::start(Fake, vocab(), &PROMPT, request(1000, 4)).unwrap();
    let mut last = run.progress();
    assert_eq!((last.level, last.levels), (1, 3));
    while run.advance().unwrap() {
        let now = run.progress();
        assert!(now.fraction >= last.fraction && now.fraction < 1.0);
        last = now;
    }
    assert_eq!(run.progress().fraction, 1.0);
}

#[test]
fn requests_past_the_limits_or_for_other_modes_are_refused_with_the_figures() {
    let err = |r: TreeRequest| {
        TreeRun::start(Fake, vocab(), &PROMPT, r)
            .err()
            .unwrap()
            .to_string()
    };
    assert!(err(request(1001, 4)).contains("1001 samples; it may draw 1 to 1000"));
    assert!(err(request(0, 4)).contains("1 to 1000"));
    assert!(err(request(10, 17)).contains("17 tokens; it may follow 1 to 16"));
    let mut greedy = request(10, 4);
    greedy.config = config(serde_json::json!({"do_sample": false}));
    assert!(err(greedy).contains("needs a sampling lane"));
    let mut dola = request(10, 4);
    dola.config = config(serde_json::json!({"do_sample": true, "dola_layers": "low"}));
    assert!(err(dola).contains("DoLa"));
    // The fake's cache: 2 layers × width 2 × 2 × 4 bytes = 32 bytes a position.
    let big = TreeRequest {
        samples: 1000,
        tokens: 16,
        config: sampling(),
    };
    assert!(big
        .check(40_000)
        .unwrap_err()
        .to_string()
        .contains("600.0 MB of keys and values"));
    assert!(big.check(30_000).is_ok());
}
