//! What a lesson package holds: the page's listed files, the lesson with
//! its recordings beside it, a manifest an LMS reads, and a zip that opens.

use super::*;
use crate::lessons::{LessonFrom, OpenLesson};
use crate::rc_eq::RcEq;
use std::io::Read;

fn site() -> Vec<SiteFile> {
    site_files(
        br#"[{"path": "index.html", "bytes": 900},
             {"path": "app_bg.wasm", "bytes": 3000000},
             {"path": "models/kjv-gpt2/model.safetensors", "bytes": 14000000}]"#,
    )
    .unwrap()
}

#[test]
fn the_site_list_is_refused_when_it_leaves_the_site_or_lacks_the_page() {
    for bad in [
        r#"[{"path": "../secret", "bytes": 1}, {"path": "index.html", "bytes": 1}]"#,
        r#"[{"path": "https://evil.example/x.js", "bytes": 1}]"#,
        r#"[{"path": "/etc/passwd", "bytes": 1}]"#,
        r#"[{"path": "app.js", "bytes": 1}]"#,
        r#"{"path": "index.html"}"#,
    ] {
        let e = site_files(bad.as_bytes()).unwrap_err().to_string();
        assert!(
            e.starts_with("`site-files.json` is not the build's list"),
            "{e}"
        );
    }
}

#[test]
fn a_built_in_lesson_on_the_bundled_model_packs_the_model_and_its_recordings() {
    let open = OpenLesson::built_in(1).unwrap();
    let plan = Plan::new(&open, site());
    assert!(plan.model_packed);
    assert_eq!(plan.site.len(), 3);
    assert_eq!(plan.site_bytes(), 17_000_900);
    let with_files = open
        .lesson
        .steps
        .iter()
        .filter(|s| matches!(s.recording, Some(Recording::File(_))))
        .count();
    assert!(with_files > 0);
    assert_eq!(plan.recordings.len(), with_files);
    assert!(plan.recordings[0].1.starts_with("lessons/recordings/"));
    assert_eq!(plan.left_behind, 0);
    // The packed lesson names the recordings as they lie beside it in the package.
    let fetched: Vec<usize> = plan.recordings.iter().map(|&(i, _)| i).collect();
    let packed = plan.packed_lesson(&fetched);
    for &i in &fetched {
        assert_eq!(
            packed.steps[i].recording,
            Some(Recording::File(recording_path(i)))
        );
    }
    let text = packed.to_json();
    ntl_protocol::lesson::parse(text.as_bytes()).expect("the packed lesson opens");
}

#[test]
fn a_lesson_on_a_hub_model_leaves_the_bundled_model_out_and_a_picked_files_recordings_behind() {
    let mut lesson = (*OpenLesson::built_in(1).unwrap().lesson).clone();
    lesson.model = "Qwen/Qwen2.5-0.5B".into();
    let open = OpenLesson {
        lesson: RcEq::new(lesson),
        from: LessonFrom::File("mine.json".into()),
    };
    let plan = Plan::new(&open, site());
    assert!(!plan.model_packed);
    assert_eq!(plan.site.len(), 2, "no models/");
    assert!(plan.recordings.is_empty());
    assert!(plan.left_behind > 0);
    let packed = plan.packed_lesson(&[]);
    assert!(packed
        .steps
        .iter()
        .all(|s| !matches!(s.recording, Some(Recording::File(_)))));
}

#[test]
fn the_manifest_is_scorm_1_2_launching_the_lesson_with_every_file_and_an_escaped_title() {
    let files = vec!["index.html".to_string(), "app/index.html".to_string()];
    let m = manifest("Greedy & <sampled> \"runs\"", &files);
    assert!(m.contains("<schemaversion>1.2</schemaversion>"));
    assert!(m.contains("adlcp:scormtype=\"sco\" href=\"app/index.html\""));
    assert!(m.contains("parameters=\"?lesson=lesson.json\""));
    assert!(m.contains("<title>Greedy &amp; &lt;sampled&gt; &quot;runs&quot;</title>"));
    assert!(m.contains("<file href=\"app/index.html\"/>"));
    let start = start_page("A <b>", "zh-CN");
    assert!(start.contains("url=app/index.html?lesson=lesson.json"));
    assert!(start.contains("<title>A &lt;b&gt;</title>"));
    assert!(start.contains("lang=\"zh-CN\""));
}

#[test]
fn the_zip_holds_each_file_byte_for_byte() {
    let files = vec![
        ("imsmanifest.xml".to_string(), b"<manifest/>".to_vec()),
        (
            "app/models/m.bin".to_string(),
            (0..=255u8).cycle().take(70_000).collect(),
        ),
    ];
    let bytes = zip(&files).unwrap();
    let mut archive = ::zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(archive.len(), 2);
    for (name, want) in &files {
        let mut got = vec![];
        archive
            .by_name(name)
            .unwrap()
            .read_to_end(&mut got)
            .unwrap();
        assert_eq!(&got, want, "{name}");
    }
}

#[test]
fn a_package_is_named_after_its_lesson() {
    assert_eq!(file_name("Greedy or not?"), "greedy-or-not-scorm.zip");
    assert_eq!(file_name("温度"), "温度-scorm.zip");
    assert_eq!(file_name("!!"), "lesson-scorm.zip");
}
