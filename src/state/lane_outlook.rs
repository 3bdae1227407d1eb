//! What a lane will run as, said next to it before it runs: what it takes
//! from the model's generation_config.json, the mode that gives, and the
//! warnings on its knobs as they will act (the file's included). Derived from
//! the lane's knobs, its choice of defaults and the model's file, and kept
//! until one of those changes: the page asks at every render, and renders at
//! every streamed step.

use crate::lane_config::LaneKnobs;
use crate::lanes::LANES;
use crate::rc_eq::RcEq;
use ntl_decoding::warnings::{lane_warnings, Note};
use ntl_decoding::{ConfigError, Defaults, Mode, ModelDefaults, Semantics};
use std::cell::RefCell;
use std::fmt;

/// What a lane takes from the model's generation_config.json, said next to it.
#[derive(Debug, Clone, PartialEq)]
pub struct StartsFrom {
    pub choice: Defaults,
    /// The file's knobs the lane does not set itself, as `name value`.
    pub taken: Vec<String>,
    /// How the lane runs with them (or would, from the library's defaults).
    pub mode: Mode,
    /// How it runs from the other choice, when that differs.
    pub other_mode: Option<Mode>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct LaneOutlook {
    /// Shown when the model's file sets knobs beyond its end-of-text ids.
    pub starts_from: Option<StartsFrom>,
    /// Notes on the config as it runs.
    pub warnings: Vec<LaneNote>,
}

/// A "does nothing here" note on one of the lane's knobs as it runs.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneNote {
    pub field: &'static str,
    pub note: Note,
    /// The knob comes from the model's generation_config.json, not the lane.
    pub from_file: bool,
}

/// A lane's config as it runs: its own knobs over the model's, or alone.
pub fn runs_as(
    own: &LaneKnobs,
    model: Option<&ModelDefaults>,
    from: Defaults,
) -> Result<ntl_decoding::LaneConfig, ConfigError> {
    match model {
        Some(model) if from == Defaults::Model && own.semantics() == Semantics::Transformers => {
            let config = model.lane(own, Defaults::Model)?;
            // Each is valid alone; together they may not be (the model's
            // do_sample with the lane's temperature 0).
            config.validate()?;
            Ok(config)
        }
        _ => Ok(own.config()),
    }
}

pub fn outlook(own: &LaneKnobs, choice: Defaults, model: Option<&ModelDefaults>) -> LaneOutlook {
    let runs = runs_as(own, model, choice).unwrap_or_else(|_| own.config());
    let from_file = |knob: &str| {
        choice == Defaults::Model
            && !own.is_set(knob)
            && model.is_some_and(|m| m.beyond_eos().iter().any(|(k, _)| *k == knob))
    };
    let warnings = lane_warnings(&runs)
        .into_iter()
        .map(|(field, note)| LaneNote {
            field,
            note,
            from_file: from_file(field),
        })
        .collect();
    LaneOutlook {
        starts_from: starts_from(own, choice, model),
        warnings,
    }
}

/// What the lane takes from the model's file, when the file sets anything
/// beyond its end-of-text ids and the lane speaks HF's names.
fn starts_from(
    own: &LaneKnobs,
    choice: Defaults,
    model: Option<&ModelDefaults>,
) -> Option<StartsFrom> {
    let model = model?;
    let knobs = model.beyond_eos();
    if knobs.is_empty() || own.semantics() != Semantics::Transformers {
        return None;
    }
    let taken = knobs
        .into_iter()
        .filter(|(k, _)| !own.is_set(k))
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let mode_from = |from| {
        runs_as(own, Some(model), from)
            .ok()
            .and_then(|c| c.transformers().map(|c| c.mode()))
    };
    let other = match choice {
        Defaults::Model => Defaults::Library,
        Defaults::Library => Defaults::Model,
    };
    let mode = mode_from(choice)?;
    let other_mode = mode_from(other).filter(|m| *m != mode);
    Some(StartsFrom {
        choice,
        taken,
        mode,
        other_mode,
    })
}

/// Each lane's last outlook with what it was derived from. A cache, not
/// state: two editors with the same lanes are equal whatever it holds.
#[derive(Clone, Default)]
pub struct Outlooks(RefCell<[Option<Entry>; LANES]>);

#[derive(Clone)]
struct Entry {
    lane: LaneKnobs,
    choice: Defaults,
    model: Option<ModelDefaults>,
    outlook: RcEq<LaneOutlook>,
}

impl Outlooks {
    /// Lane `i`'s outlook: the same `RcEq` (one pointer comparison in the
    /// lane's props) while its knobs, its choice and the model's file stay.
    pub fn get(
        &self,
        i: usize,
        own: &LaneKnobs,
        choice: Defaults,
        model: Option<&ModelDefaults>,
    ) -> RcEq<LaneOutlook> {
        let mut slots = self.0.borrow_mut();
        let Some(slot) = slots.get_mut(i) else {
            return RcEq::new(outlook(own, choice, model));
        };
        match slot {
            Some(e) if e.lane == *own && e.choice == choice && e.model.as_ref() == model => {
                e.outlook.clone()
            }
            _ => {
                let fresh = RcEq::new(outlook(own, choice, model));
                *slot = Some(Entry {
                    lane: own.clone(),
                    choice,
                    model: model.cloned(),
                    outlook: fresh.clone(),
                });
                fresh
            }
        }
    }
}

impl PartialEq for Outlooks {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for Outlooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Outlooks")
    }
}
