//! `lesson`: lesson files checked against a model on the command line.
//!
//! lesson check --model DIR FILE...    every step's recording is what the model writes
//! lesson record --model DIR FILE...   (re)writes the recordings the steps name
//!
//! A recording is the page's export document for the step (compact JSON,
//! ten candidates a step), at the path the step names beside the lesson.

use ntl_cli::lesson_runs::{difference, LessonModels, StepRunError};
use ntl_cli::model_dir::ModelDirError;
use ntl_decoding::Document;
use ntl_protocol::lesson::{self, LessonError, Recording};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: lesson check|record --model DIR FILE...

  check    every step's recorded run (inline or in the file it names) is exactly
           what the model writes for the step's lanes; steps without one are listed
  record   runs every step that names a recording file and writes it
           (a lesson with \"weights\": \"q8_0\" runs its model kept in 8 bits)
  --model DIR   the lessons' model folder (the bundled one: www/models/kjv-gpt2)";

#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error("{USAGE}")]
    Usage,
    #[error("{}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: {source}", .path.display())]
    Lesson {
        path: PathBuf,
        #[source]
        source: LessonError,
    },
    #[error(transparent)]
    Model(#[from] ModelDirError),
    #[error("{}, step {}: {source}", .path.display(), .step + 1)]
    Run {
        path: PathBuf,
        step: usize,
        #[source]
        source: StepRunError,
    },
    #[error("{}: not a recorded run: {source}", .path.display())]
    Recording {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("{}, step {}: {source}", .path.display(), .step + 1)]
    Misfit {
        path: PathBuf,
        step: usize,
        #[source]
        source: LessonError,
    },
    #[error("{0} step(s) differ from their recordings")]
    Differs(usize),
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|source| Failure::Read {
        path: path.to_path_buf(),
        source,
    })
}

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lesson: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<(), Failure> {
    let (command, rest) = args.split_first().ok_or(Failure::Usage)?;
    let record = match command.as_str() {
        "check" => false,
        "record" => true,
        _ => return Err(Failure::Usage),
    };
    let (mut model, mut files) = (None, vec![]);
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--model" => model = Some(PathBuf::from(it.next().ok_or(Failure::Usage)?)),
            _ => files.push(PathBuf::from(a)),
        }
    }
    let (Some(model), false) = (model, files.is_empty()) else {
        return Err(Failure::Usage);
    };
    let mut models = LessonModels::load(&model)?;
    let mut differ = 0;
    for path in &files {
        // `www/lessons/*.json` names the list of lessons too.
        if path.file_name().is_some_and(|n| n == "index.json") {
            continue;
        }
        let bytes = read(path)?;
        let lesson = lesson::parse(&bytes).map_err(|source| Failure::Lesson {
            path: path.clone(),
            source,
        })?;
        let dir = path.parent().unwrap_or(Path::new("."));
        // Lane models are folders beside the page, which holds `lessons/`.
        let site = dir.parent().unwrap_or(Path::new("."));
        for (i, step) in lesson.steps.iter().enumerate() {
            let at = format!("{}, step {}", path.display(), i + 1);
            let run_step = |models: &mut LessonModels| {
                models
                    .run(site, &lesson, step)
                    .map_err(|source| Failure::Run {
                        path: path.clone(),
                        step: i,
                        source,
                    })
            };
            let recorded: Document = match &step.recording {
                None => {
                    println!("{at}: no recording (runs live only)");
                    continue;
                }
                Some(Recording::Inline(doc)) if !record => (**doc).clone(),
                Some(Recording::Inline(_)) => {
                    println!("{at}: inline recording left as it is");
                    continue;
                }
                Some(Recording::File(file)) if !record => {
                    let file = dir.join(file);
                    serde_json::from_slice(&read(&file)?)
                        .map_err(|source| Failure::Recording { path: file, source })?
                }
                Some(Recording::File(file)) => {
                    let fresh = run_step(&mut models)?;
                    let file = dir.join(file);
                    if let Some(parent) = file.parent() {
                        std::fs::create_dir_all(parent).map_err(|source| Failure::Read {
                            path: parent.to_path_buf(),
                            source,
                        })?;
                    }
                    let json = serde_json::to_string(&fresh).expect("documents serialise");
                    std::fs::write(&file, json + "\n").map_err(|source| Failure::Read {
                        path: file.clone(),
                        source,
                    })?;
                    println!("{at}: recorded {}", file.display());
                    continue;
                }
            };
            lesson::validate::recording_fits("recording", step, &recorded).map_err(|source| {
                Failure::Misfit {
                    path: path.clone(),
                    step: i,
                    source,
                }
            })?;
            let fresh = run_step(&mut models)?;
            match difference(&recorded, &fresh) {
                None => println!("{at}: the recording is what the model writes"),
                Some(d) => {
                    differ += 1;
                    println!("{at}: DIFFERS: {d}");
                }
            }
        }
    }
    if differ > 0 {
        return Err(Failure::Differs(differ));
    }
    Ok(())
}
