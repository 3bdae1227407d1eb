//! What packing the open lesson does to the page (see `package`).

use super::outcome::{Command, Outcome};
use super::package::Packaging;
use super::Page;
use crate::lesson_package::{Plan, SiteFile};
use crate::page_error::PageError;
use crate::rc_eq::RcEq;

impl Page {
    /// "Download as a package": finds out what it would hold first.
    pub fn package_lesson(&mut self) -> Outcome {
        if matches!(
            *self.package,
            Packaging::Measuring | Packaging::Packing { .. }
        ) {
            return Outcome::unchanged();
        }
        self.package = RcEq::new(Packaging::Measuring);
        Outcome::redraw().and(Command::MeasurePackage)
    }

    pub fn package_measured(&mut self, files: Result<Vec<SiteFile>, PageError>) -> Outcome {
        if *self.package != Packaging::Measuring {
            return Outcome::unchanged();
        }
        self.package = RcEq::new(match files {
            Ok(files) => Packaging::Offered(Plan::new(&self.lessons.open, files)),
            Err(e) => Packaging::Failed(e.into()),
        });
        Outcome::redraw()
    }

    /// The teacher confirmed the size: fetch and zip.
    pub fn package_confirmed(&mut self) -> Outcome {
        let Packaging::Offered(plan) = &*self.package else {
            return Outcome::unchanged();
        };
        let plan = plan.clone();
        self.package = RcEq::new(Packaging::Packing {
            done: 0,
            total: plan.fetches(),
        });
        Outcome::redraw().and(Command::Pack(Box::new(plan)))
    }

    pub fn package_progress(&mut self, done: usize, total: usize) -> Outcome {
        if !matches!(*self.package, Packaging::Packing { .. }) {
            return Outcome::unchanged();
        }
        self.package = RcEq::new(Packaging::Packing { done, total });
        Outcome::redraw()
    }

    pub fn package_done(&mut self, result: Result<(String, u64), PageError>) -> Outcome {
        self.package = RcEq::new(match result {
            Ok((name, bytes)) => Packaging::Done { name, bytes },
            Err(e) => Packaging::Failed(e.into()),
        });
        Outcome::redraw()
    }

    /// The offer is set aside.
    pub fn package_cancelled(&mut self) -> Outcome {
        if matches!(*self.package, Packaging::Packing { .. }) {
            return Outcome::unchanged();
        }
        self.package = RcEq::default();
        Outcome::redraw()
    }
}
