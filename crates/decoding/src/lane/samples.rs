//! Sampling with `num_return_sequences` > 1: HF samples that many sequences
//! side by side from the same prompt. Each sample is a one-row lane of its
//! own (its own random stream, its own stop), all advancing in the batch;
//! the first is the lane's text and steps, the others its extra sequences.

use super::contract::{Lane, LaneEnv, Next, RowOutputs};
use super::single::SingleLane;
use crate::config::ValidConfig;
use crate::draws::Draws;
use crate::processors::Pipeline;
use crate::record::{Run, Step};

pub struct SamplesLane {
    samples: Vec<SingleLane>,
    /// Each running sample's row in this lane's outputs (`None`: finished).
    rows: Vec<Option<usize>>,
}

impl SamplesLane {
    pub fn new(cfg: ValidConfig, dola: Option<Vec<usize>>, env: &LaneEnv) -> SamplesLane {
        let n = cfg.num_return_sequences;
        let samples = (0..n)
            .map(|k| {
                let pipeline = Pipeline::for_config(&cfg, env.prompt.len());
                let draws = Draws::stream(cfg.seed, k as u64);
                SingleLane::with_draws(cfg.clone(), pipeline, env.prompt, None, draws)
                    .with_dola(dola.clone())
            })
            .collect();
        // Every sample starts from the prompt's one row.
        SamplesLane {
            samples,
            rows: vec![Some(0); n],
        }
    }
}

impl Lane for SamplesLane {
    fn advance(
        &mut self,
        out: &RowOutputs,
        env: &LaneEnv,
        shared: Option<&[f64]>,
    ) -> (Option<Step>, Next) {
        let mut first = None;
        let mut src = Vec::new();
        let mut tokens = Vec::new();
        let mut first_stop = None;
        for (k, (sample, row)) in self.samples.iter_mut().zip(&mut self.rows).enumerate() {
            let Some(r) = *row else { continue };
            let one = RowOutputs {
                logits: out.logits(r),
                unconditional: None,
                hidden: out.hidden(r),
                exits: out.row_exits(r),
                exits_per_row: out.exits_per_row,
                vocab_size: out.vocab_size,
                hidden_size: out.hidden_size,
            };
            // Shared randomness couples the lanes' first samples only; the
            // others keep their own streams, or all samples would agree.
            let (step, next) = sample.advance(&one, env, shared.filter(|_| k == 0));
            if k == 0 {
                first = step;
            }
            match next {
                Next::Feed { tokens: t, .. } => {
                    *row = Some(src.len());
                    src.push(r);
                    tokens.extend(t);
                }
                // Its samples are HF lanes, which never ask for a window.
                Next::Window { .. } => *row = None,
                Next::Done(reason) => {
                    *row = None;
                    if k == 0 {
                        first_stop = Some(reason);
                    }
                }
            }
        }
        let next = if tokens.is_empty() {
            Next::Done(first_stop.unwrap_or(crate::record::StopReason::MaxNewTokens))
        } else {
            Next::Feed { src, tokens }
        };
        (first, next)
    }

    fn cancel(&mut self) {
        for s in &mut self.samples {
            s.cancel();
        }
    }

    fn generated(&self) -> &[u32] {
        self.samples[0].generated()
    }

    fn uses_draws(&self) -> bool {
        self.rows[0].is_some()
    }

    fn exit_layers(&self) -> &[usize] {
        self.samples[0].exit_layers()
    }

    fn into_run(self: Box<Self>, env: &LaneEnv) -> Run {
        let mut runs = self.samples.into_iter().map(|s| Box::new(s).into_run(env));
        let mut run = runs.next().expect("at least two samples");
        for other in runs {
            let mut seq = other.sequences.into_iter().next().expect("one sequence");
            seq.steps = other.steps;
            run.sequences.push(seq);
        }
        run
    }
}
