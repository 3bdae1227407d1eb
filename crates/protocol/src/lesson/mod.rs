//! Lesson files: a teacher's lesson as data (format version 1). The JSON
//! Schema is `www/lesson.schema.json`, the guide `docs/lessons.md`.
//!
//! A lesson file is a stranger's data, like a share link: [`parse`] bounds
//! its size, names the field at fault (`steps[3].questions[0].lane`), and
//! checks every lane by the decoding crate's own rules before the page or
//! the CLI sees it. Lanes and steps are numbered from 1 where a teacher
//! writes them (`"lane": 2` is the page's lane 2); field paths index JSON
//! arrays from 0, as JSON tools do.

mod error;
mod format;
mod intake;
pub mod link;
#[cfg(test)]
mod tests;
pub mod validate;

pub use error::{LessonError, Problem};
pub use format::*;
pub use intake::parse;
