//! The batched decoding loop: one prefill of the shared prompt, then every
//! lane's rows advance together in one forward pass per step.

use crate::config::ValidConfig;
use crate::dola::candidate_layers;
use crate::draws::Draws;
use crate::lane::{lane_for, Lane, LaneEnv, Next, RowOutputs};
use crate::lens::lens_layers;
use crate::model::{Exit, LanguageModel, ModelError};
pub use crate::prompt::{prepare_prompt, Prompt};
use crate::record::{Run, Step, StopReason};
use crate::vocab::{streamable_text, Vocab};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};

/// One lane as asked for: a config in HF field names (not yet validated),
/// optionally following given ids.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaneRequest {
    pub config: crate::LaneConfig,
    #[serde(default)]
    pub forced_ids: Option<Vec<u32>>,
}

/// One lane ready to run: its config validated (with the model's eos).
#[derive(Debug, Clone)]
pub struct LaneSpec {
    pub config: ValidConfig,
    /// Teacher forcing: follow these ids, recording this config's distributions.
    pub forced: Option<Vec<u32>>,
}

#[derive(Debug, Clone)]
pub struct Options {
    /// Candidates kept per step table.
    pub top_n: usize,
    /// When set, every sampling lane uses the same uniforms at each step
    /// (seeded by this), so lanes differ by their knobs, not by luck.
    pub shared_seed: Option<u64>,
    /// Classifier-free guidance's unconditional start (HF's
    /// `negative_prompt_ids`); without one, the prompt's last token.
    pub negative_prompt: Option<Vec<u32>>,
    /// The prompt before it was cropped to fit the context, when it was.
    pub full_prompt: Option<Vec<u32>>,
    /// Record the logit lens of every one-sequence lane's steps (early exits
    /// through the final norm at every layer: a head product per layer and
    /// row, so only when asked).
    pub lens: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            top_n: 20,
            shared_seed: None,
            negative_prompt: None,
            full_prompt: None,
            lens: false,
        }
    }
}

/// Streamed while the loop runs.
pub enum Event<'a> {
    Step {
        lane: usize,
        step: &'a Step,
        index: usize,
        text: String,
    },
    LaneDone {
        lane: usize,
        reason: StopReason,
    },
}

/// What a lane decided in one step: its record, and what to feed next.
type Decision = (Option<Step>, Next);
/// A lane and its decision, filled in by whichever thread takes the lane.
type Slot<'a> = Mutex<(&'a mut Box<dyn Lane>, Option<Decision>)>;

/// A run in progress. `advance` does one step of every lane and one batched
/// forward pass, so a caller (the web worker) can yield between steps and
/// honour a Stop without threads.
pub struct Generation<M: LanguageModel> {
    model: M,
    vocab: Arc<Vocab>,
    prompt: Vec<u32>,
    full_prompt: Vec<u32>,
    top_n: usize,
    lanes: Vec<Box<dyn Lane>>,
    active: Vec<bool>,
    shared: Option<Draws>,
    steps_done: Vec<usize>,
    cache: M::Cache,
    cache_rows: usize,
    logits: Vec<f32>,
    hidden: Vec<f32>,
    /// Each active lane's rows in the current outputs: (offset, count).
    ranges: Vec<(usize, usize)>,
    /// Early exits' logits (DoLa lanes), and each lane's share of them:
    /// (first exit, exits per row).
    exits: Vec<f32>,
    exit_ranges: Vec<(usize, usize)>,
    /// The logit lens's exits (`n_layers − 1` rows per followed lane) and
    /// where each lane's rows start, when the run records the lens.
    lens: Lens,
    /// The unconditional passes of guided lanes, batched in a cache of their own.
    guide: Option<Guide<M::Cache>>,
}

/// Classifier-free guidance's second model pass: one row per guided lane,
/// started from the negative prompt (or the prompt's last token) and fed the
/// lane's tokens, as HF's unbatched guidance does.
struct Guide<C> {
    cache: C,
    /// The lane behind each row.
    lanes: Vec<usize>,
    logits: Vec<f32>,
}

/// The logit lens's rows of the current pass.
struct Lens {
    on: bool,
    /// Exits per followed row: every layer's output but the last (the
    /// pass's own logits are that one).
    per_row: usize,
    rows: Vec<f32>,
    /// Per lane, its first row in `rows`.
    at: Vec<Option<usize>>,
}

impl Lens {
    /// The exits that follow `row` of a pass.
    fn exits(&self, row: usize) -> impl Iterator<Item = Exit> {
        (1..=self.per_row).map(move |layer| Exit {
            row,
            layer,
            normed: true,
        })
    }
}

/// A window lane's own pass (a tutorial lane past its context: its length
/// is not the batch's, and no cache is kept): its last row's logits and
/// hidden state after the rows already there, and the lane's range of rows;
/// with the lens on, its lens rows after those there, and where they start.
fn window_row<M: LanguageModel>(
    model: &M,
    ids: &[u32],
    logits: &mut Vec<f32>,
    hidden: &mut Vec<f32>,
    lens: &mut Lens,
) -> Result<((usize, usize), Option<usize>), ModelError> {
    let (v, h) = (model.vocab_size(), model.hidden_size());
    let exits: Vec<Exit> = if lens.on {
        lens.exits(0).collect()
    } else {
        vec![]
    };
    let fwd = model.prefill_with_exits(ids, &exits)?;
    let range = (logits.len() / v, 1);
    logits.extend_from_slice(&fwd.logits[fwd.logits.len() - v..]);
    hidden.extend_from_slice(&fwd.hidden[fwd.hidden.len() - h..]);
    let at = lens.on.then(|| lens.rows.len() / v);
    lens.rows.extend_from_slice(&fwd.exits);
    Ok((range, at))
}

/// The most positions a run asks the cache to make room for at once: a
/// four-lane GPT-2 run's 256 positions take 38 MB; a lane going further
/// grows the cache by half again as it goes, and one that stops early
/// leaves less unused.
const ROOM_AT_ONCE: usize = 256;

impl<M: LanguageModel> Generation<M> {
    /// Runs the prompt once; every lane starts from that one row.
    pub fn start(
        model: M,
        vocab: Arc<Vocab>,
        prompt: &[u32],
        lanes: Vec<LaneSpec>,
        opts: &Options,
    ) -> Result<Self, ModelError> {
        if prompt.is_empty() || prompt.len() >= model.n_positions() {
            return Err(ModelError::PromptLength {
                max: model.n_positions() - 1,
            });
        }
        // DoLa lanes read early exits from the first pass on.
        let dola: Vec<Option<Vec<usize>>> = lanes
            .iter()
            .map(|s| {
                let layers = s.config.dola_layers.as_ref()?;
                Some(candidate_layers(
                    layers,
                    model.n_layers(),
                    model.tied_head(),
                ))
            })
            .map(Option::transpose)
            .collect::<Result<_, _>>()?;
        let mut exits = Vec::new();
        let mut exit_ranges = Vec::with_capacity(dola.len());
        for layers in &dola {
            let layers = layers.as_deref().unwrap_or_default();
            exit_ranges.push((exits.len(), layers.len()));
            exits.extend(layers.iter().map(|&layer| Exit {
                row: 0,
                layer,
                normed: false,
            }));
        }
        let mut lens = Lens {
            on: opts.lens,
            per_row: model.n_layers().saturating_sub(1),
            rows: vec![],
            at: vec![],
        };
        // Every lane starts from the prompt's row: its lens is computed once.
        let dola_exits = exits.len();
        if lens.on {
            exits.extend(lens.exits(0));
        }
        let mut pre = model.prefill_with_exits(prompt, &exits)?;
        let v = model.vocab_size();
        lens.rows = pre.exits.split_off(dola_exits * v);
        let h = model.hidden_size();
        let env = LaneEnv {
            vocab: &vocab,
            prompt,
            full_prompt: opts.full_prompt.as_deref().unwrap_or(prompt),
            n_positions: model.n_positions(),
            top_n: opts.top_n,
        };
        let longest = lanes
            .iter()
            .map(|s| s.config.new_token_budget(prompt.len()))
            .max()
            .unwrap_or(0);
        let guided: Vec<usize> = lanes
            .iter()
            .enumerate()
            .filter(|(_, s)| s.config.guidance_scale().is_some())
            .map(|(i, _)| i)
            .collect();
        let lanes: Vec<Box<dyn Lane>> = lanes
            .into_iter()
            .zip(dola)
            .map(|(s, dola)| lane_for(s.config, s.forced, dola, &pre.hidden, &env))
            .collect();
        let last = pre.hidden.len() / h - 1;
        let n = lanes.len();
        // Room in the cache for the longest lane at once (up to
        // ROOM_AT_ONCE positions), so that its steps write in place; none
        // when a lane reorders its rows at every step (beams), as each
        // reordering would copy the room too.
        let room = if lanes.iter().all(|l| l.one_sequence()) {
            longest
                .min(model.n_positions() - prompt.len())
                .min(ROOM_AT_ONCE)
        } else {
            0
        };
        let guide = if guided.is_empty() {
            None
        } else {
            let start = match &opts.negative_prompt {
                Some(ids) if !ids.is_empty() => ids.clone(),
                _ => vec![*prompt.last().expect("a non-empty prompt")],
            };
            let un = model.prefill(&start)?;
            let v = model.vocab_size();
            let row = &un.logits[un.logits.len() - v..];
            Some(Guide {
                cache: model.select(&un.cache, &vec![0; guided.len()])?,
                logits: guided.iter().flat_map(|_| row.iter().copied()).collect(),
                lanes: guided,
            })
        };
        let mut logits = pre.logits;
        let mut hidden = pre.hidden[last * h..].to_vec();
        let mut ranges = vec![(0, 1); n];
        lens.at = lanes
            .iter()
            .map(|l| (lens.on && l.one_sequence()).then_some(0))
            .collect();
        // Lanes that start from a window of their own: a pass each, its row
        // after the shared one.
        for (i, lane) in lanes.iter().enumerate() {
            if let Some(ids) = lane.initial_window() {
                let (range, at) = window_row(&model, &ids, &mut logits, &mut hidden, &mut lens)?;
                ranges[i] = range;
                lens.at[i] = at.filter(|_| lane.one_sequence());
            }
        }
        Ok(Generation {
            hidden,
            logits,
            exits: pre.exits,
            exit_ranges,
            lens,
            cache: model.with_room(pre.cache, room)?,
            cache_rows: 1,
            ranges,
            active: vec![true; n],
            steps_done: vec![0; n],
            shared: opts.shared_seed.map(Draws::new),
            top_n: opts.top_n,
            prompt: prompt.to_vec(),
            full_prompt: opts.full_prompt.clone().unwrap_or_else(|| prompt.to_vec()),
            lanes,
            guide,
            model,
            vocab,
        })
    }

    /// One step of every active lane, then the next batched forward pass.
    /// Returns whether any lane is still running. A `Break` from `on_event`
    /// cancels every lane at once.
    pub fn advance(
        &mut self,
        on_event: &mut impl FnMut(Event) -> ControlFlow<()>,
    ) -> Result<bool, ModelError> {
        let (v, h) = (self.model.vocab_size(), self.model.hidden_size());
        let env = LaneEnv {
            vocab: &self.vocab,
            prompt: &self.prompt,
            full_prompt: &self.full_prompt,
            n_positions: self.model.n_positions(),
            top_n: self.top_n,
        };
        let lanes = &mut self.lanes;
        let active = &self.active;
        let draws = self
            .shared
            .as_mut()
            .filter(|_| {
                lanes
                    .iter()
                    .zip(active.iter())
                    .any(|(l, &a)| a && l.uses_draws())
            })
            .map(|d| d.uniforms(v));
        // The lanes decide their steps independently (on the worker's helper
        // threads where there are some); events go out in lane order after.
        let (logits, hidden, ranges) = (&self.logits, &self.hidden, &self.ranges);
        let (exits, exit_ranges) = (&self.exits, &self.exit_ranges);
        // Only the rows' lanes and logits cross threads, never the cache.
        let guide = self
            .guide
            .as_ref()
            .map(|g| (g.lanes.as_slice(), g.logits.as_slice()));
        let slots: Vec<Slot> = lanes.iter_mut().map(|l| Mutex::new((l, None))).collect();
        ntl_parallel::each(slots.len(), &|i| {
            if !active[i] {
                return;
            }
            let (off, n) = ranges[i];
            let (first_exit, per_row) = exit_ranges[i];
            let unconditional = guide.and_then(|(lanes, logits)| {
                let row = lanes.iter().position(|&l| l == i)?;
                Some(&logits[row * v..(row + 1) * v])
            });
            let out = RowOutputs {
                logits: &logits[off * v..(off + n) * v],
                unconditional,
                hidden: &hidden[off * h..(off + n) * h],
                exits: &exits[first_exit * v..(first_exit + n * per_row) * v],
                exits_per_row: per_row,
                vocab_size: v,
                hidden_size: h,
            };
            let mut slot = slots[i]
                .lock()
                .expect("a lane's slot is locked by one thread at a time");
            slot.1 = Some(slot.0.advance(&out, &env, draws.as_deref()));
        });
        let decided: Vec<_> = slots
            .into_iter()
            .map(|s| s.into_inner().expect("no lane panicked").1)
            .collect();
        let mut src = Vec::new();
        let mut tokens = Vec::new();
        let mut next_ranges = self.ranges.clone();
        let mut next_exits: Vec<Exit> = Vec::new();
        let mut next_exit_ranges = self.exit_ranges.clone();
        let mut next_lens: Vec<Exit> = Vec::new();
        let mut next_lens_at = self.lens.at.clone();
        let mut cancelled = false;
        // Guided lanes that go on, with the token each feeds its unconditional row.
        let mut guided_next: Vec<(usize, u32)> = Vec::new();
        // Lanes that ask for a fresh pass over a window of their ids.
        let mut windows: Vec<(usize, Vec<u32>)> = Vec::new();
        for (i, decided) in decided.into_iter().enumerate() {
            let Some((mut step, next)) = decided else {
                continue;
            };
            let off = self.ranges[i].0;
            if let (Some(step), Some(at)) = (&mut step, self.lens.at[i]) {
                let per = self.lens.per_row;
                let lens = lens_layers(
                    &self.lens.rows[at * v..(at + per) * v],
                    &self.logits[off * v..(off + 1) * v],
                    step.token_id,
                    &self.vocab,
                );
                // Into the lane's record (the run's document) and the event.
                if let Some(recorded) = self.lanes[i].last_step_mut() {
                    recorded.lens = Some(lens.clone());
                }
                step.lens = Some(lens);
            }
            if let Some(step) = &step {
                let text = streamable_text(&self.vocab.concat_bytes(self.lanes[i].generated()));
                let index = self.steps_done[i];
                self.steps_done[i] += 1;
                if on_event(Event::Step {
                    lane: i,
                    step,
                    index,
                    text,
                })
                .is_break()
                {
                    cancelled = true;
                }
            }
            match next {
                Next::Feed { src: s, tokens: t } => {
                    if let Some(g) = &self.guide {
                        if let (Some(row), [token]) =
                            (g.lanes.iter().position(|&l| l == i), t.as_slice())
                        {
                            guided_next.push((row, *token));
                        }
                    }
                    let layers = self.lanes[i].exit_layers();
                    next_exit_ranges[i] = (next_exits.len(), layers.len());
                    for row in src.len()..src.len() + s.len() {
                        next_exits.extend(layers.iter().map(|&layer| Exit {
                            row,
                            layer,
                            normed: false,
                        }));
                    }
                    next_lens_at[i] = None;
                    if self.lens.on && self.lanes[i].one_sequence() && s.len() == 1 {
                        next_lens_at[i] = Some(next_lens.len());
                        next_lens.extend(self.lens.exits(src.len()));
                    }
                    next_ranges[i] = (src.len(), s.len());
                    src.extend(s.into_iter().map(|r| off + r));
                    tokens.extend(t);
                }
                Next::Window { ids } => windows.push((i, ids)),
                Next::Done(reason) => {
                    self.active[i] = false;
                    let _ = on_event(Event::LaneDone { lane: i, reason });
                }
            }
        }
        if cancelled {
            self.cancel(on_event);
            return Ok(false);
        }
        if tokens.is_empty() && windows.is_empty() {
            return Ok(false);
        }
        if tokens.is_empty() {
            // Only window lanes go on; they never feed a cached row again.
            self.logits.clear();
            self.hidden.clear();
            self.exits.clear();
            self.lens.rows.clear();
            self.cache_rows = 0;
        } else {
            let identity =
                src.len() == self.cache_rows && src.iter().enumerate().all(|(i, &r)| i == r);
            if !identity {
                self.cache = self.model.select(&self.cache, &src)?;
            }
            let dola_exits = next_exits.len();
            next_exits.extend(next_lens);
            let mut fwd = self
                .model
                .step_with_exits(&self.cache, &tokens, &next_exits)?;
            self.lens.rows = fwd.exits.split_off(dola_exits * v);
            self.cache = fwd.cache;
            self.exits = fwd.exits;
            self.cache_rows = tokens.len();
            self.logits = fwd.logits;
            self.hidden = fwd.hidden;
        }
        // Each window is its own pass (its length is not the batch's), its
        // row after the batch's rows, with no cache kept.
        for (i, ids) in windows {
            let (range, at) = window_row(
                &self.model,
                &ids,
                &mut self.logits,
                &mut self.hidden,
                &mut self.lens,
            )?;
            next_ranges[i] = range;
            next_lens_at[i] = at;
            next_exit_ranges[i] = (0, 0);
        }
        self.lens.at = next_lens_at;
        self.exit_ranges = next_exit_ranges;
        self.ranges = next_ranges;
        self.guide = match self.guide.take() {
            Some(g) if !guided_next.is_empty() => {
                let rows: Vec<usize> = guided_next.iter().map(|&(r, _)| r).collect();
                let tokens: Vec<u32> = guided_next.iter().map(|&(_, t)| t).collect();
                let cache = self.model.select(&g.cache, &rows)?;
                let fwd = self.model.step(&cache, &tokens)?;
                Some(Guide {
                    cache: fwd.cache,
                    lanes: rows.iter().map(|&r| g.lanes[r]).collect(),
                    logits: fwd.logits,
                })
            }
            _ => None,
        };
        Ok(true)
    }

    /// Ends every running lane with `cancelled`.
    pub fn cancel(&mut self, on_event: &mut impl FnMut(Event) -> ControlFlow<()>) {
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            if self.active[i] {
                lane.cancel();
                self.active[i] = false;
                let _ = on_event(Event::LaneDone {
                    lane: i,
                    reason: StopReason::Cancelled,
                });
            }
        }
    }

    pub fn finish(self) -> Vec<Run> {
        let env = LaneEnv {
            vocab: &self.vocab,
            prompt: &self.prompt,
            full_prompt: &self.full_prompt,
            n_positions: self.model.n_positions(),
            top_n: self.top_n,
        };
        self.lanes.into_iter().map(|l| l.into_run(&env)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_that_fit_are_kept_and_the_rest_cropped_from_the_left_leaving_room() {
        assert_eq!(
            prepare_prompt(&[], 9, 8, 2),
            Prompt {
                ids: vec![9],
                cropped: 0
            }
        );
        assert_eq!(prepare_prompt(&[1, 2, 3], 9, 8, 2).cropped, 0);
        let p = prepare_prompt(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0, 8, 2);
        assert_eq!(
            p,
            Prompt {
                ids: vec![5, 6, 7, 8, 9, 10],
                cropped: 4
            }
        );
        // Room is capped at half the context.
        assert_eq!(prepare_prompt(&[1; 20], 0, 8, 100).ids.len(), 4);
    }
}
