//! The logit lens on the page: shown or hidden. A run records it only while
//! it is shown (it costs a head product per layer and step), so showing it
//! over a run recorded without it runs that run's request again with it —
//! the same seeds, so the same tokens, now with every layer's rows.

use super::outcome::Outcome;
use super::Page;

impl Page {
    /// Shows or hides the lens.
    pub fn show_lens(&mut self, on: bool) -> Outcome {
        self.lens = on;
        let again = self
            .run
            .request
            .clone()
            .filter(|r| on && !r.lens && self.run.running.is_none() && self.worker.alive);
        let Some(mut request) = again else {
            return Outcome::redraw();
        };
        request.lens = true;
        // The run on screen stays what it was; only its steps gain the lens.
        let run_id = self.run.begin_again(request.clone());
        self.run_sent(run_id, request)
    }
}
