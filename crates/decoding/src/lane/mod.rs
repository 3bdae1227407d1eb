//! One lane = one configuration decoding the shared prompt. Each lane is a
//! small state machine: given its rows' outputs from the last batched forward
//! pass, it records a step and says which rows and tokens to feed next.

mod beam;
mod beam_common;
mod constrained_beam;
mod contract;
mod contrastive;
mod group_beam;
mod hypotheses;
mod llama_cpp;
mod samples;
mod single;
mod tutorial;

pub use beam::BeamLane;
pub use constrained_beam::ConstrainedBeamLane;
pub(crate) use contract::stop_after;
pub use contract::{Lane, LaneEnv, Next, RowOutputs};
pub use contrastive::ContrastiveLane;
pub use group_beam::GroupBeamLane;
pub use llama_cpp::LlamaCppLane;
pub use samples::SamplesLane;
pub use single::SingleLane;
pub use tutorial::TutorialLane;

use crate::config::ValidConfig;
use crate::processors::Pipeline;

/// Builds the lane a config asks for; `dola` holds the layers a DoLa lane
/// contrasts with (resolved for the model).
pub fn lane_for(
    cfg: ValidConfig,
    forced: Option<Vec<u32>>,
    dola: Option<Vec<usize>>,
    prompt_hidden: &[f32],
    env: &LaneEnv,
) -> Box<dyn Lane> {
    use crate::mode::Mode;
    if cfg.mode == Mode::LlamaCpp {
        if let Some(lane) = LlamaCppLane::new(cfg.clone(), forced.clone(), env) {
            return Box::new(lane);
        }
    }
    if cfg.mode == Mode::Tutorial {
        if let Some(lane) = TutorialLane::new(cfg.clone(), forced.clone(), env) {
            return Box::new(lane);
        }
    }
    let pipeline = Pipeline::for_config(&cfg, env.prompt.len());
    match (cfg.mode, forced) {
        (_, Some(forced)) => {
            Box::new(SingleLane::new(cfg, pipeline, env.prompt, Some(forced)).with_dola(dola))
        }
        (Mode::Sample, None) if cfg.num_return_sequences > 1 => {
            Box::new(SamplesLane::new(cfg, dola, env))
        }
        // A llama.cpp or tutorial mode without its settings cannot be built
        // (validate sets both); decode greedily rather than panic.
        (Mode::Greedy | Mode::Sample | Mode::LlamaCpp | Mode::Tutorial, None) => {
            Box::new(SingleLane::new(cfg, pipeline, env.prompt, None).with_dola(dola))
        }
        (Mode::Beam | Mode::BeamSample, None) => Box::new(BeamLane::new(cfg, pipeline, env.prompt)),
        (Mode::GroupBeam, None) => Box::new(GroupBeamLane::new(cfg, pipeline, env.prompt)),
        (Mode::ConstrainedBeam, None) => {
            Box::new(ConstrainedBeamLane::new(cfg, pipeline, env.prompt))
        }
        (Mode::Contrastive, None) => Box::new(ContrastiveLane::new(
            cfg,
            pipeline,
            env.prompt,
            prompt_hidden,
        )),
    }
}
