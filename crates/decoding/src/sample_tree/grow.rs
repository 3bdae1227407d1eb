//! Growing the tree a level at a time: each pass feeds a chunk of the
//! level's distinct prefixes, and the samples at each prefix draw their
//! next token from its distribution (after the lane's knobs).

use super::limits::{TreeError, TreeRequest};
use super::record::{SampleTree, TreeNode};
use crate::draws::{pick_by_cdf, Draws};
use crate::lane::stop_after;
use crate::model::{LanguageModel, ModelError};
use crate::observe::{observe, Input};
use crate::processors::{Context, Pipeline};
use crate::vocab::Vocab;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Logits one pass may hold (rows × vocabulary × 4 bytes): 256 rows of
/// GPT-2's 50,257, 110 of Qwen2's 151,936.
const LOGITS_BUDGET: usize = 64 << 20;

/// How far a tree has grown, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreeProgress {
    /// The level being fed (1: the samples' first tokens are in).
    pub level: usize,
    /// Levels that need a pass: `tokens − 1` (the last tokens come from the level before).
    pub levels: usize,
    /// Rows computed so far.
    pub rows: usize,
    /// Done, from 0 to 1.
    pub fraction: f64,
}

/// Rows of one pass: the distinct prefixes fed together, and the cache their
/// parents' rows are in.
struct Chunk<C> {
    cache: C,
    /// Each row's parent row in `cache`.
    src: Vec<usize>,
    /// The node each row feeds (its token is the node's).
    nodes: Vec<u32>,
    /// The samples that wrote each row's prefix.
    members: Vec<Vec<u32>>,
}

/// One branch drawn at a prefix: its token, its probabilities, its samples.
struct Drawn {
    token: u32,
    prob: f32,
    raw_prob: f32,
    members: Vec<u32>,
}

pub struct TreeRun<M: LanguageModel> {
    model: M,
    vocab: Arc<Vocab>,
    prompt: Vec<u32>,
    request: TreeRequest,
    pipeline: Pipeline,
    /// One random stream per sample: stream `k` of the lane's seed.
    draws: Vec<Draws>,
    nodes: Vec<TreeNode>,
    /// Per sample, the node it ended at (`u32::MAX` while it runs).
    leaves: Vec<u32>,
    level: VecDeque<Chunk<M::Cache>>,
    next: Vec<Chunk<M::Cache>>,
    /// The level being fed, its rows, and those of them done.
    depth: usize,
    level_rows: usize,
    level_done: usize,
    rows: usize,
    chunk_rows: usize,
    cancelled: bool,
}

impl<M: LanguageModel> TreeRun<M> {
    /// Checks the request, runs the prompt once and draws every sample's
    /// first token.
    pub fn start(
        model: M,
        vocab: Arc<Vocab>,
        prompt: &[u32],
        request: TreeRequest,
    ) -> Result<Self, TreeError> {
        if prompt.is_empty() || prompt.len() >= model.n_positions() {
            return Err(ModelError::PromptLength {
                max: model.n_positions() - 1,
            }
            .into());
        }
        request.check(model.cache_bytes_per_position())?;
        let pre = model.prefill(prompt)?;
        let cache = model.shared(pre.cache)?;
        let n = request.samples;
        let seed = request.config.seed;
        let chunk_rows = (LOGITS_BUDGET / (model.vocab_size() * 4)).clamp(16, 256);
        let mut run = TreeRun {
            pipeline: Pipeline::for_config(&request.config, prompt.len()),
            draws: (0..n).map(|k| Draws::stream(seed, k as u64)).collect(),
            nodes: vec![],
            leaves: vec![u32::MAX; n],
            level: VecDeque::new(),
            next: vec![],
            depth: 0,
            level_rows: 0,
            level_done: 0,
            rows: 1,
            chunk_rows,
            cancelled: false,
            prompt: prompt.to_vec(),
            request,
            vocab,
            model,
        };
        let last = &pre.logits[pre.logits.len() - run.model.vocab_size()..];
        run.grow(cache, &[None], vec![(0..n as u32).collect()], last);
        run.next_level();
        Ok(run)
    }

    /// Feeds one chunk of the current level. Returns whether any is left.
    pub fn advance(&mut self) -> Result<bool, TreeError> {
        if self.cancelled {
            return Ok(false);
        }
        let Some(chunk) = self.level.pop_front() else {
            return Ok(false);
        };
        let cache = self.model.select(&chunk.cache, &chunk.src)?;
        let tokens: Vec<u32> = chunk
            .nodes
            .iter()
            .map(|&n| self.nodes[n as usize].token_id)
            .collect();
        let fwd = self.model.step(&cache, &tokens)?;
        self.rows += tokens.len();
        self.level_done += tokens.len();
        let parents: Vec<Option<u32>> = chunk.nodes.iter().map(|&n| Some(n)).collect();
        self.grow(fwd.cache, &parents, chunk.members, &fwd.logits);
        if self.level.is_empty() {
            self.next_level();
        }
        Ok(!self.level.is_empty())
    }

    pub fn progress(&self) -> TreeProgress {
        let levels = self.request.tokens - 1;
        let fraction = if self.level.is_empty() {
            1.0
        } else {
            let within = self.level_done as f64 / self.level_rows.max(1) as f64;
            ((self.depth - 1) as f64 + within) / levels.max(1) as f64
        };
        TreeProgress {
            level: self.depth,
            levels,
            rows: self.rows,
            fraction,
        }
    }

    /// Stops growing: the samples still running end where they are.
    pub fn cancel(&mut self) {
        self.cancelled = true;
    }

    pub fn finish(mut self) -> SampleTree {
        let complete = !self.cancelled && self.level.is_empty() && self.next.is_empty();
        let running: Vec<Chunk<M::Cache>> =
            self.level.drain(..).chain(self.next.drain(..)).collect();
        for chunk in running {
            for (&node, members) in chunk.nodes.iter().zip(&chunk.members) {
                self.nodes[node as usize].stop = Some(crate::record::StopReason::Cancelled);
                for &k in members {
                    self.leaves[k as usize] = node;
                }
            }
        }
        let n = self.request.samples as f64;
        for node in &mut self.nodes {
            node.share = node.count as f64 / n;
        }
        SampleTree {
            config: self.request.config.effective(),
            samples: self.request.samples,
            tokens: self.request.tokens,
            nodes: self.nodes,
            leaves: self.leaves,
            rows: self.rows,
            complete,
        }
    }

    /// Moves the chunks queued by the level just fed up to be fed.
    fn next_level(&mut self) {
        self.level = self.next.drain(..).collect();
        self.depth += 1;
        self.level_rows = self.level.iter().map(|c| c.nodes.len()).sum();
        self.level_done = 0;
    }

    /// The ids from the prompt's start to `node`'s token.
    fn ids_to(&self, node: Option<u32>) -> Vec<u32> {
        let mut path = vec![];
        let mut at = node;
        while let Some(n) = at {
            let node = &self.nodes[n as usize];
            path.push(node.token_id);
            at = node.parent;
        }
        let mut ids = self.prompt.clone();
        ids.extend(path.into_iter().rev());
        ids
    }

    /// Each row's samples draw their next token from the row's logits; the
    /// branches become nodes, and those that go on are queued for the next
    /// level's passes over `cache`.
    fn grow(
        &mut self,
        cache: M::Cache,
        parents: &[Option<u32>],
        members: Vec<Vec<u32>>,
        logits: &[f32],
    ) {
        let v = self.model.vocab_size();
        let ids: Vec<Vec<u32>> = parents.iter().map(|&p| self.ids_to(p)).collect();
        // Each sample's uniform for this step, from its own stream, in sample order.
        let uniforms: Vec<Vec<f64>> = members
            .iter()
            .map(|m| {
                m.iter()
                    .map(|&k| self.draws[k as usize].uniform())
                    .collect()
            })
            .collect();
        let slots: Vec<Mutex<Vec<Drawn>>> = parents.iter().map(|_| Mutex::new(vec![])).collect();
        let (pipeline, prompt_len) = (&self.pipeline, self.prompt.len());
        ntl_parallel::each(parents.len(), &|r| {
            let row = &logits[r * v..(r + 1) * v];
            let obs = observe(
                pipeline,
                &Context::new(&ids[r], prompt_len),
                row,
                Input::Logits,
            );
            let drawn = draw_branches(&obs.probs, &obs.raw_probs, &members[r], &uniforms[r]);
            *slots[r].lock().expect("one thread per row") = drawn;
        });
        let mut going = Chunk {
            cache,
            src: vec![],
            nodes: vec![],
            members: vec![],
        };
        for (r, slot) in slots.into_iter().enumerate() {
            let (depth, path_prob, path_raw_prob) = match parents[r] {
                Some(p) => {
                    let p = &self.nodes[p as usize];
                    (p.depth + 1, p.path_prob, p.path_raw_prob)
                }
                None => (1, 1.0, 1.0),
            };
            for branch in slot.into_inner().expect("no row panicked") {
                let id = self.nodes.len() as u32;
                let mut path = ids[r].clone();
                path.push(branch.token);
                let stop = stop_after(
                    &self.request.config,
                    &path,
                    prompt_len,
                    self.model.n_positions(),
                    &self.vocab,
                );
                self.nodes.push(TreeNode {
                    parent: parents[r],
                    depth,
                    token_id: branch.token,
                    token: self.vocab.display(branch.token),
                    count: branch.members.len() as u32,
                    share: 0.0,
                    prob: branch.prob,
                    raw_prob: branch.raw_prob,
                    path_prob: path_prob * branch.prob as f64,
                    path_raw_prob: path_raw_prob * branch.raw_prob as f64,
                    stop,
                });
                if stop.is_some() || depth as usize >= self.request.tokens {
                    for &k in &branch.members {
                        self.leaves[k as usize] = id;
                    }
                } else {
                    going.src.push(r);
                    going.nodes.push(id);
                    going.members.push(branch.members);
                }
            }
        }
        self.queue(going);
    }

    /// Splits the rows that go on into passes of at most `chunk_rows`.
    fn queue(&mut self, mut going: Chunk<M::Cache>) {
        while !going.nodes.is_empty() {
            let at = going.nodes.len().min(self.chunk_rows);
            let rest = Chunk {
                cache: going.cache.clone(),
                src: going.src.split_off(at),
                nodes: going.nodes.split_off(at),
                members: going.members.split_off(at),
            };
            self.next.push(std::mem::replace(&mut going, rest));
        }
    }
}

/// The samples at one prefix, each drawing with its uniform: the branches
/// they make, most-drawn first (ties by token id).
fn draw_branches(probs: &[f32], raw: &[f32], members: &[u32], uniforms: &[f64]) -> Vec<Drawn> {
    let mut cum = Vec::with_capacity(probs.len());
    let mut total = 0.0f64;
    for &p in probs {
        total += p as f64;
        cum.push(total);
    }
    let mut drawn: Vec<Drawn> = vec![];
    for (&k, &u) in members.iter().zip(uniforms) {
        let token = pick_by_cdf(&cum, u) as u32;
        match drawn.iter_mut().find(|d| d.token == token) {
            Some(d) => d.members.push(k),
            None => drawn.push(Drawn {
                token,
                prob: probs[token as usize],
                raw_prob: raw[token as usize],
                members: vec![k],
            }),
        }
    }
    drawn.sort_by(|a, b| {
        b.members
            .len()
            .cmp(&a.members.len())
            .then(a.token.cmp(&b.token))
    });
    drawn
}
