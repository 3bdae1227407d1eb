//! Every lesson the page ships opens, is listed in its index, and shows a
//! recording only where the model it names (the bundled one, or a folder the
//! page ships) writes exactly that recording.

use ntl_cli::lesson_runs::{difference, run_step, LessonModels};
use ntl_decoding::Document;
use ntl_protocol::lesson::{self, Recording};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn lesson_files() -> Vec<PathBuf> {
    let dir = root().join("www/lessons");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| p.file_name().unwrap() != "index.json")
        .collect();
    files.sort();
    files
}

#[test]
fn at_least_fourteen_lessons_ship_and_the_index_lists_each_once() {
    let files = lesson_files();
    assert!(files.len() >= 14, "{} lesson files", files.len());
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root().join("www/lessons/index.json")).unwrap())
            .unwrap();
    let mut listed: Vec<String> = index["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["file"].as_str().unwrap().to_string())
        .collect();
    listed.sort();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(listed, names);
    for entry in index["lessons"].as_array().unwrap() {
        let bytes = std::fs::read(
            root()
                .join("www/lessons")
                .join(entry["file"].as_str().unwrap()),
        );
        let l = lesson::parse(&bytes.unwrap()).unwrap();
        assert_eq!(entry["title"], l.title.as_str());
        assert_eq!(entry["steps"], l.steps.len());
        assert_eq!(entry["language"], l.language.as_str());
    }
}

#[test]
fn every_shipped_recording_is_what_its_model_writes() {
    // The bundled model, or a folder shipped beside it (the tutorial's MiniGPT).
    let mut engines = std::collections::HashMap::new();
    let (mut checked, mut live) = (0, 0);
    for path in lesson_files() {
        let l = lesson::parse(&std::fs::read(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let folder = match l.model.as_str() {
            "bundled" => "www/models/kjv-gpt2".to_string(),
            f => format!("www/{f}"),
        };
        assert!(
            root().join(&folder).is_dir(),
            "{}: recorded on a model the page ships ({folder})",
            path.display()
        );
        let models = engines
            .entry(folder.clone())
            .or_insert_with(|| LessonModels::load(&root().join(&folder)).unwrap());
        // A translation runs its original's steps and recordings (the page's
        // unit tests check they are the same): each is run once, in English.
        if l.language != "en" {
            continue;
        }
        for (i, step) in l.steps.iter().enumerate() {
            let recorded: Document = match &step.recording {
                None => {
                    live += 1;
                    continue;
                }
                Some(Recording::Inline(doc)) => (**doc).clone(),
                Some(Recording::File(f)) => {
                    let file = path.parent().unwrap().join(f);
                    serde_json::from_slice(&std::fs::read(&file).unwrap())
                        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
                }
            };
            lesson::validate::recording_fits("recording", step, &recorded).unwrap();
            let fresh = models.run(&root().join("www"), &l, step).unwrap();
            if let Some(d) = difference(&recorded, &fresh) {
                panic!("{}, step {}: {d}", path.display(), i + 1);
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked} recordings checked");
    assert!(live <= 3, "{live} steps run live only");
}

#[test]
fn a_recording_that_is_not_the_models_run_is_caught() {
    let engine = ntl_cli::model_dir::load(&root().join("www/models/kjv-gpt2")).unwrap();
    let l = lesson::parse(&std::fs::read(root().join("www/lessons/greedy-top-k-1.json")).unwrap())
        .unwrap();
    let fresh = run_step(&engine, &[], &l.steps[0]).unwrap();
    let mut forged = fresh.clone();
    forged.runs[0].text.push_str(" and more");
    assert!(difference(&forged, &fresh)
        .unwrap()
        .contains("lane 1 wrote"));
    let mut nudged = fresh.clone();
    nudged.runs[2].steps[3].top[1].prob += 0.01;
    assert!(difference(&nudged, &fresh)
        .unwrap()
        .contains("lane 3, step 4"));
    assert_eq!(difference(&fresh, &fresh), None);
}
