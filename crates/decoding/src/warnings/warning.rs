//! One "this knob does nothing here" note.

use super::note::Note;
use crate::knob::Knob;

/// A note about one knob (from a config) or one funnel stage (from a run).
#[derive(Debug, Clone, PartialEq)]
pub struct Warning<About = Knob> {
    pub field: About,
    pub note: Note,
}
