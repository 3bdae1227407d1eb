//! `?lesson=` addresses: only a path on the page's own site is opened (a
//! lesson is a stranger's data, and one from another origin could pose as
//! the teacher's), and recordings are read beside the lesson.

/// Why a `?lesson=` address is refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LessonAddressError {
    #[error("`?lesson=` is empty: give a lesson file's path on this site, e.g. `?lesson=lessons/four-runs.json`")]
    Empty,
    #[error(
        "`?lesson={0}` points to another site; a lesson opens only from this page's own site \
         (a path such as `lessons/mine.json`) — download it and pick the file instead"
    )]
    OtherOrigin(String),
    #[error("`?lesson={0}` is not a `.json` file's path")]
    NotJson(String),
}

/// Checks a `?lesson=` value: a relative or site-absolute path to a `.json`
/// file, never a URL with a scheme or another host (`//host/…`).
pub fn check(path: &str) -> Result<String, LessonAddressError> {
    let path = path.trim();
    let shown = || path.chars().take(80).collect::<String>();
    if path.is_empty() {
        return Err(LessonAddressError::Empty);
    }
    let scheme = path
        .split_once(':')
        .is_some_and(|(s, _)| !s.contains('/') && !s.contains('?') && !s.contains('#'));
    if scheme || path.starts_with("//") || path.contains('\\') {
        return Err(LessonAddressError::OtherOrigin(shown()));
    }
    let file = path.split(['?', '#']).next().unwrap_or_default();
    if !file.ends_with(".json") {
        return Err(LessonAddressError::NotJson(shown()));
    }
    Ok(path.to_string())
}

/// `path` (a lesson's relative recording path) beside the lesson at `lesson`.
pub fn beside(lesson: &str, path: &str) -> String {
    let lesson = lesson.split(['?', '#']).next().unwrap_or_default();
    match lesson.rfind('/') {
        Some(i) => format!("{}{path}", &lesson[..=i]),
        None => path.to_string(),
    }
}
