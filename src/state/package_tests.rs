//! A lesson package: measured before it is made, made only when confirmed,
//! and a failure said without losing the page.

use super::package::Packaging;
use super::*;
use crate::lesson_package::site_files;

#[test]
fn a_package_is_offered_with_its_size_then_packed_only_when_confirmed() {
    let mut page = Page::new(
        Requested::default(),
        crate::worker_choice::Abilities::default(),
    )
    .0;
    let _ = page.open_built_in(1);
    assert!(
        page.package_confirmed().commands.is_empty(),
        "nothing offered yet"
    );
    let out = page.package_lesson();
    assert_eq!(out.commands, [Command::MeasurePackage]);
    assert!(page.package_lesson().commands.is_empty(), "once at a time");
    let files = site_files(
        br#"[{"path": "index.html", "bytes": 1000}, {"path": "models/m/model.safetensors", "bytes": 2000000}]"#,
    );
    let _ = page.package_measured(files.map_err(Into::into));
    let Packaging::Offered(plan) = &*page.package else {
        panic!("{:?}", page.package)
    };
    assert!(plan.model_packed);
    assert_eq!(plan.site_bytes(), 2_001_000);
    let total = plan.fetches();
    let out = page.package_confirmed();
    assert!(matches!(&out.commands[..], [Command::Pack(p)] if p.fetches() == total));
    let _ = page.package_progress(1, total);
    assert_eq!(*page.package, Packaging::Packing { done: 1, total });
    assert!(!page.package_cancelled().redraw, "not while packing");
    let _ = page.package_done(Ok(("x-scorm.zip".into(), 5)));
    assert!(matches!(&*page.package, Packaging::Done { bytes: 5, .. }));
}

#[test]
fn a_site_without_a_file_list_says_so_and_the_offer_can_be_set_aside() {
    let mut page = Page::new(
        Requested::default(),
        crate::worker_choice::Abilities::default(),
    )
    .0;
    let _ = page.package_lesson();
    let _ = page.package_measured(Err(crate::page_error::PageError::FetchStatus {
        url: "site-files.json".into(),
        status: 404,
        text: "Not Found".into(),
    }));
    let Packaging::Failed(e) = &*page.package else {
        panic!("{:?}", page.package)
    };
    assert!(e.to_string().contains("site-files.json"), "{e}");
    let _ = page.package_cancelled();
    assert_eq!(*page.package, Packaging::Idle);
}
