//! The browser's part of a lesson package: the page's file list fetched,
//! then every file, zipped (`lesson_package`) and handed over as a download.

use super::browser::fetch;
use crate::lesson_package::{self, Plan, SiteFile, APP_DIR, LESSON_FILE, SITE_FILES};
use crate::page_error::PageError;
use yew::Callback;

/// The largest file of the page (the bundled model is 14 MB).
const MAX_FILE_BYTES: usize = 256 * 1024 * 1024;
/// A recorded run beside a lesson.
const MAX_RECORDING_BYTES: usize = 64 * 1024 * 1024;

pub fn measure(done: Callback<Result<Vec<SiteFile>, PageError>>) {
    wasm_bindgen_futures::spawn_local(async move {
        let files = fetch(SITE_FILES, 1024 * 1024)
            .await
            .and_then(|b| lesson_package::site_files(&b).map_err(PageError::from));
        done.emit(files);
    });
}

pub fn pack(
    plan: Plan,
    progress: Callback<(usize, usize)>,
    done: Callback<Result<(String, u64), PageError>>,
) {
    wasm_bindgen_futures::spawn_local(async move {
        done.emit(packed(plan, progress).await);
    });
}

async fn packed(
    plan: Plan,
    progress: Callback<(usize, usize)>,
) -> Result<(String, u64), PageError> {
    let total = plan.fetches();
    let mut files: Vec<(String, Vec<u8>)> = Vec::with_capacity(total + 3);
    for f in &plan.site {
        let bytes = fetch(&f.path, MAX_FILE_BYTES).await?;
        files.push((format!("{APP_DIR}{}", f.path), bytes));
        progress.emit((files.len(), total));
    }
    let mut fetched = vec![];
    for (i, url) in &plan.recordings {
        let bytes = fetch(url, MAX_RECORDING_BYTES).await?;
        let path = lesson_package::recording_path(*i);
        files.push((format!("{APP_DIR}{path}"), bytes));
        fetched.push(*i);
        progress.emit((files.len(), total));
    }
    let lesson = plan.packed_lesson(&fetched);
    files.push((
        format!("{APP_DIR}{LESSON_FILE}"),
        lesson.to_json().into_bytes(),
    ));
    files.push((
        "index.html".into(),
        lesson_package::start_page(&lesson.title, &lesson.language).into_bytes(),
    ));
    let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    files.push((
        "imsmanifest.xml".into(),
        lesson_package::manifest(&lesson.title, &names).into_bytes(),
    ));
    let zip = lesson_package::zip(&files)?;
    drop(files);
    let name = lesson_package::file_name(&lesson.title);
    crate::download::save_bytes(&name, "application/zip", &zip)?;
    Ok((name, zip.len() as u64))
}
