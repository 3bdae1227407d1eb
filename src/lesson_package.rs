//! A lesson as one zip a teacher uploads to the school's web space or LMS:
//! the static page under `app/`, the lesson and its recorded runs beside it,
//! the bundled model when the lesson runs on it, a start page at the root
//! that opens the lesson, and an `imsmanifest.xml` so an LMS imports it as a
//! SCORM 1.2 package. What is in the site comes from `site-files.json`,
//! which the build writes; fetching is the browser's part (`app::package`).

use crate::lessons::OpenLesson;
use ntl_protocol::lesson::{Lesson, Recording};
use ntl_protocol::share::BUNDLED;
use serde::Deserialize;
use std::io::Write;

/// The build's list of the page's files, beside `index.html`.
pub const SITE_FILES: &str = "site-files.json";
/// Where the page goes inside the package.
pub const APP_DIR: &str = "app/";
/// The lesson's name beside the page inside the package.
pub const LESSON_FILE: &str = "lesson.json";
/// The bundled model's folder, which only a lesson on the bundled model takes.
const MODEL_DIR: &str = "models/";
/// A site of more files than this is not the page's.
const MAX_SITE_FILES: usize = 200;

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("`{SITE_FILES}` is not the build's list of the page's files: {0}")]
    SiteFiles(String),
    #[error("the package could not be written: {0}")]
    Zip(#[from] zip::result::ZipError),
}

/// One file of the page, as the build listed it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteFile {
    /// Relative to the page (`models/kjv-gpt2/model.safetensors`).
    pub path: String,
    pub bytes: u64,
}

/// A plain relative path inside the site: no `..`, no scheme, no leading `/`.
fn inside(path: &str) -> bool {
    !path.is_empty()
        && path.len() <= 200
        && !path.starts_with('/')
        && !path.contains(':')
        && !path.contains('\\')
        && path
            .split('/')
            .all(|seg| !seg.is_empty() && seg != "." && seg != "..")
}

/// Reads `site-files.json`.
pub fn site_files(json: &[u8]) -> Result<Vec<SiteFile>, PackageError> {
    let files: Vec<SiteFile> =
        serde_json::from_slice(json).map_err(|e| PackageError::SiteFiles(e.to_string()))?;
    if files.len() > MAX_SITE_FILES {
        return Err(PackageError::SiteFiles(format!(
            "{} files (at most {MAX_SITE_FILES})",
            files.len()
        )));
    }
    if let Some(bad) = files.iter().find(|f| !inside(&f.path)) {
        return Err(PackageError::SiteFiles(format!(
            "`{}` is not a path inside the site",
            bad.path.chars().take(80).collect::<String>()
        )));
    }
    if !files.iter().any(|f| f.path == "index.html") {
        return Err(PackageError::SiteFiles("it lists no `index.html`".into()));
    }
    Ok(files)
}

/// What a package of the open lesson holds, known before anything but the
/// list is fetched.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub lesson: Lesson,
    /// The page's files to fetch (the bundled model's only when the lesson
    /// runs on it).
    pub site: Vec<SiteFile>,
    /// Each step's recording file to fetch: (step from 0, its address).
    pub recordings: Vec<(usize, String)>,
    /// Recordings that cannot come along (beside a picked file): those
    /// steps run live.
    pub left_behind: usize,
    /// Whether the bundled model is in the package (else the lesson names
    /// a hub model the class downloads).
    pub model_packed: bool,
}

impl Plan {
    pub fn new(open: &OpenLesson, site: Vec<SiteFile>) -> Plan {
        let lesson = (*open.lesson).clone();
        let model_packed = lesson.model == BUNDLED;
        let site = site
            .into_iter()
            .filter(|f| model_packed || !f.path.starts_with(MODEL_DIR))
            .collect();
        let mut recordings = vec![];
        let mut left_behind = 0;
        for (i, step) in lesson.steps.iter().enumerate() {
            if let Some(Recording::File(_)) = step.recording {
                match open.recording_url(i) {
                    Some(url) => recordings.push((i, url)),
                    None => left_behind += 1,
                }
            }
        }
        Plan {
            lesson,
            site,
            recordings,
            left_behind,
            model_packed,
        }
    }

    /// The page's bytes (the recordings, a few hundred KB, come on top).
    pub fn site_bytes(&self) -> u64 {
        self.site.iter().map(|f| f.bytes).sum()
    }

    /// Files to fetch, the page's and the recordings.
    pub fn fetches(&self) -> usize {
        self.site.len() + self.recordings.len()
    }

    /// The lesson as the package holds it: each recording fetched under
    /// `recordings/step-N.json` beside it; any other recording file dropped
    /// (that step runs live).
    pub fn packed_lesson(&self, fetched: &[usize]) -> Lesson {
        let mut lesson = self.lesson.clone();
        for (i, step) in lesson.steps.iter_mut().enumerate() {
            if let Some(Recording::File(_)) = step.recording {
                step.recording = fetched
                    .contains(&i)
                    .then(|| Recording::File(recording_path(i)));
            }
        }
        lesson
    }
}

/// Step `i`'s recording, relative to the lesson inside the package.
pub fn recording_path(i: usize) -> String {
    format!("recordings/step-{}.json", i + 1)
}

/// The package's file name: the lesson's title's words, then `-scorm.zip`.
pub fn file_name(title: &str) -> String {
    format!("{}-scorm.zip", crate::lessons::title_slug(title))
}

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// The address inside the package that opens the lesson.
pub fn launch() -> String {
    format!("{APP_DIR}index.html?lesson={LESSON_FILE}")
}

/// SCORM 1.2's manifest: one organisation, one SCO (the page, launched on
/// the lesson), and every file of the package.
pub fn manifest(title: &str, files: &[String]) -> String {
    let title = xml_escape(title);
    let mut out = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="next-token-lab-lesson" version="1.2"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
"#,
    );
    out.push_str(&format!(
        r#"  <organizations default="lesson-org">
    <organization identifier="lesson-org">
      <title>{title}</title>
      <item identifier="lesson-item" identifierref="lesson-sco" isvisible="true" parameters="?lesson={LESSON_FILE}">
        <title>{title}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="lesson-sco" type="webcontent" adlcp:scormtype="sco" href="{APP_DIR}index.html">
"#
    ));
    for f in files {
        out.push_str(&format!("      <file href=\"{}\"/>\n", xml_escape(f)));
    }
    out.push_str("    </resource>\n  </resources>\n</manifest>\n");
    out
}

/// The package's root page: opens the lesson (for a plain web space, where
/// no LMS reads the manifest).
pub fn start_page(title: &str, language: &str) -> String {
    let title = xml_escape(title);
    let language = xml_escape(language);
    let launch = launch();
    format!(
        r#"<!doctype html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0; url={launch}">
<title>{title}</title>
</head>
<body>
<p><a href="{launch}">{title}</a></p>
</body>
</html>
"#
    )
}

/// The files as one zip, stored as they are: the weights and the wasm are
/// what make it large, and neither shrinks much, so nothing waits on deflate.
pub fn zip(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, PackageError> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .large_file(false);
    for (name, bytes) in files {
        w.start_file(name.as_str(), options)?;
        w.write_all(bytes).map_err(zip::result::ZipError::Io)?;
    }
    Ok(w.finish()?.into_inner())
}

#[cfg(test)]
mod tests;
