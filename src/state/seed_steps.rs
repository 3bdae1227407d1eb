//! Fresh seeds on the page: a lane that asks for a new seed each run (an HF
//! lane sampling without one, a llama.cpp lane at -1) gets one drawn from
//! the browser's randomness as the run starts ([`super::fresh_seeds`]). The
//! lane shows it, *Keep this seed* makes it the lane's own, and a link or
//! lesson step made from the run on screen carries it, so what was seen can
//! be seen again.

use super::Page;
use crate::lane_config::LaneKnobs;

impl Page {
    /// The editor's lanes, each with the seed the run on screen drew for it
    /// when that run ran exactly these lanes and this prompt.
    pub fn lanes_as_run(&self) -> Vec<LaneKnobs> {
        let now = self.editor.active();
        let ran_these = self
            .run
            .ran_with
            .as_ref()
            .is_some_and(|(prompt, lanes)| *prompt == self.editor.prompt && lanes == now);
        now.iter()
            .zip(self.run.drawn)
            .map(|(lane, drawn)| match drawn.filter(|_| ran_these) {
                Some(seed) => lane.with_seed(seed),
                None => lane.clone(),
            })
            .collect()
    }

    /// The seed drawn for `lane` becomes its own: the next run repeats this
    /// one. The run on screen still counts as run with the lanes now set.
    pub fn keep_seed(&mut self, lane: usize) {
        let Some(seed) = self.run.drawn.get(lane).copied().flatten() else {
            return;
        };
        let kept = self.editor.lanes[lane].with_seed(seed);
        if let Some((_, lanes)) = &mut self.run.ran_with {
            if lanes.get(lane) == Some(&self.editor.lanes[lane]) {
                lanes[lane] = kept.clone();
            }
        }
        self.editor.replace_lane(lane, kept);
    }
}
