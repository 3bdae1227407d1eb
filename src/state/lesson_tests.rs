//! The lesson player's transitions: `?lesson=` and the model it names,
//! refused lessons, steps, and recorded runs.

use super::lesson_player::Recorded;
use super::*;
use crate::lesson_check::StepRef;
use crate::lessons::address::LessonAddressError;
use crate::lessons::LessonFrom;
use ntl_protocol::FromWorker;

use super::tests::info as loaded;

fn asked(path: &str, model: Option<&str>) -> Requested {
    Requested {
        lesson: Some(Ok(path.into())),
        model: model.map(Into::into),
        ..Requested::default()
    }
}

fn lesson_json(model: &str, steps: &str) -> Vec<u8> {
    format!(
        r#"{{"version": 1, "title": "Mine", "language": "en", "model": "{model}", "steps": {steps}}}"#
    )
    .into_bytes()
}

const TWO_STEPS: &str = r#"[
    {"prose": "One", "prompt": "Once upon a time", "lanes": [{"max_new_tokens": 3}],
     "recording": "runs/one.json"},
    {"prose": "Two", "prompt": "The cat", "lanes": [{}, {"do_sample": true, "seed": 4}]}
]"#;

fn fetches(out: &Outcome) -> Vec<&Command> {
    out.commands
        .iter()
        .filter(|c| {
            matches!(
                c,
                Command::FetchLesson { .. } | Command::FetchRecording { .. }
            )
        })
        .collect()
}

fn loads(out: &Outcome) -> Option<ToWorker> {
    out.commands.iter().find_map(|c| match c {
        Command::Send(m @ (ToWorker::Load { .. } | ToWorker::Measure { .. })) => Some(m.clone()),
        _ => None,
    })
}

#[test]
fn a_lesson_address_is_fetched_and_the_model_waits_for_the_lesson_to_name_it() {
    let (mut page, commands) = Page::new(
        asked("course/mine.json", None),
        crate::worker_choice::Abilities::default(),
    );
    assert_eq!(
        commands[1],
        Command::FetchLesson {
            path: "course/mine.json".into()
        }
    );
    page.worker_spawned(Ok(()));
    let ready = page.on_worker(FromWorker::Ready, 0.0);
    assert_eq!(loads(&ready), None, "no model before the lesson says which");
    let out = page.lesson_arrived(
        LessonFrom::Site("course/mine.json".into()),
        Ok(lesson_json("bundled", TWO_STEPS)),
    );
    assert!(
        matches!(
            loads(&out),
            Some(ToWorker::Load {
                source: ModelSource::Bundled { .. },
                ..
            })
        ),
        "{out:?}"
    );
    assert_eq!(page.editor.prompt, "Once upon a time");
    // No model is ready: the step's recording is fetched beside the lesson.
    assert_eq!(
        fetches(&out),
        [&Command::FetchRecording {
            url: "course/runs/one.json".into(),
            at: StepRef {
                from: LessonFrom::Site("course/mine.json".into()),
                step: 0
            }
        }]
    );
    assert_eq!(page.lessons.recorded, Recorded::Fetching);
}

/// `requested` opens with its worker up, then `mine.json` arrives naming a
/// hub model.
fn hub_lesson_arrives(requested: Requested) -> (Page, Outcome) {
    let (mut page, _) = Page::new(requested, crate::worker_choice::Abilities::default());
    page.worker_spawned(Ok(()));
    let _ = page.on_worker(FromWorker::Ready, 0.0);
    let out = page.lesson_arrived(
        LessonFrom::Site("mine.json".into()),
        Ok(lesson_json("Qwen/Qwen2.5-0.5B", TWO_STEPS)),
    );
    (page, out)
}

#[test]
fn a_lesson_for_a_hub_model_asks_before_downloading_and_an_address_model_wins() {
    let (_, out) = hub_lesson_arrives(asked("mine.json", None));
    assert!(
        matches!(loads(&out), Some(ToWorker::Measure { ref repo }) if repo == "Qwen/Qwen2.5-0.5B"),
        "the size first, as for a share link: {out:?}"
    );
    // `?model=` named the model: the lesson does not change it.
    let (mut page, _) = Page::new(
        asked("mine.json", Some("bundled")),
        crate::worker_choice::Abilities::default(),
    );
    page.worker_spawned(Ok(()));
    assert!(loads(&page.on_worker(FromWorker::Ready, 0.0)).is_some());
    let out = page.lesson_arrived(
        LessonFrom::Site("mine.json".into()),
        Ok(lesson_json("Qwen/Qwen2.5-0.5B", TWO_STEPS)),
    );
    assert_eq!(loads(&out), None);
}

#[test]
fn a_refused_lesson_names_the_field_and_leaves_the_page_as_it_was() {
    let (mut page, _) = Page::new(
        asked("mine.json", None),
        crate::worker_choice::Abilities::default(),
    );
    page.worker_spawned(Ok(()));
    let _ = page.on_worker(FromWorker::Ready, 0.0);
    let before = page.editor.clone();
    let bad = TWO_STEPS.replace(r#""seed": 4"#, r#""seed": "four""#);
    let out = page.lesson_arrived(
        LessonFrom::Site("mine.json".into()),
        Ok(lesson_json("bundled", &bad)),
    );
    let error = page.lessons.error.clone().expect("refused");
    assert!(error.to_string().contains("steps[1].lanes[1]"), "{error}");
    assert_eq!(page.editor, before);
    assert_eq!(page.lessons.open.from, LessonFrom::BuiltIn(0));
    assert!(
        loads(&out).is_some(),
        "the page's own default model loads once the lesson is refused"
    );
    // An address that is not a path on this site is refused at once.
    let (page, commands) = Page::new(
        Requested {
            lesson: Some(Err(LessonAddressError::OtherOrigin(
                "https://x.y/l.json".into(),
            ))),
            ..Requested::default()
        },
        crate::worker_choice::Abilities::default(),
    );
    assert_eq!(commands.len(), 1, "nothing fetched");
    assert!(page
        .lessons
        .error
        .unwrap()
        .to_string()
        .contains("another site"));
}

#[test]
fn steps_put_their_prompt_and_lanes_in_the_editor_and_a_late_recording_is_set_aside() {
    let mut page = Page::new(
        Requested::default(),
        crate::worker_choice::Abilities::default(),
    )
    .0;
    let from = LessonFrom::File("mine.json".into());
    let _ = page.lesson_arrived(from.clone(), Ok(lesson_json("bundled", TWO_STEPS)));
    assert_eq!(
        page.lessons.recorded,
        Recorded::NotShown,
        "a picked file's neighbours cannot be read"
    );
    let _ = page.lesson_step(1);
    assert_eq!(page.editor.prompt, "The cat");
    assert_eq!(page.editor.lanes[1].seed(), Some(4));
    assert!(!page.lessons.has_recording());
    let doc = ntl_decoding::Document {
        prompt_ids: vec![1],
        prompt: "Once upon a time".into(),
        prompt_cropped: 0,
        runs: vec![],
    };
    let stale = StepRef { from, step: 0 };
    let out = page.recording_arrived(stale, Ok(doc));
    assert!(!out.redraw, "step 1 is no longer open");
    assert_eq!(page.run.document, None);
    assert!(page.lesson_step(9).commands.is_empty(), "no step 10");
}

#[test]
fn a_built_in_steps_recording_shows_only_until_a_model_is_ready_and_must_fit_its_step() {
    let mut page = Page::new(
        Requested::default(),
        crate::worker_choice::Abilities::default(),
    )
    .0;
    let out = page.open_built_in(1);
    let [Command::FetchRecording { url, at }] = &fetches(&out)[..] else {
        panic!("{out:?}")
    };
    assert_eq!(url, "lessons/recordings/temperature-sweep-1.json");
    let text = std::fs::read(format!("www/{url}")).unwrap();
    let doc: ntl_decoding::Document = serde_json::from_slice(&text).unwrap();
    let mut wrong = doc.clone();
    wrong.prompt = "Another prompt".into();
    let _ = page.recording_arrived(at.clone(), Ok(wrong));
    assert!(
        matches!(&page.lessons.recorded, Recorded::Failed(e) if e.to_string().contains("not the step's prompt")),
        "{:?}",
        page.lessons.recorded
    );
    // Only a recording asked for goes on screen: asked again, it shows.
    let _ = page.recording_arrived(at.clone(), Ok(doc.clone()));
    assert!(matches!(page.lessons.recorded, Recorded::Failed(_)));
    let _ = page.show_recording();
    let _ = page.recording_arrived(at.clone(), Ok(doc));
    assert_eq!(page.lessons.recorded, Recorded::Shown);
    assert_eq!(page.run.document.as_ref().unwrap().runs.len(), 4);
    // With a model ready, a lesson opens without its recording (Run shows it live).
    page.worker_spawned(Ok(()));
    let _ = page.on_worker(FromWorker::Ready, 0.0);
    let _ = page.on_worker(loaded(), 0.0);
    let out = page.open_built_in(2);
    assert!(fetches(&out).is_empty());
    assert_eq!(page.lessons.recorded, Recorded::NotShown);
    assert!(page.lessons.has_recording());
    assert_eq!(fetches(&page.show_recording()).len(), 1, "on request");
}

fn embedded(path: &str, model: Option<&str>) -> Requested {
    Requested {
        embed: true,
        ..asked(path, model)
    }
}

fn sends_run(out: &Outcome) -> bool {
    out.commands
        .iter()
        .any(|c| matches!(c, Command::Send(ToWorker::Run { .. })))
}

#[test]
fn an_embedded_lesson_downloads_nothing_until_run_live_then_loads_and_runs() {
    let (mut page, _) = Page::new(
        embedded("mine.json", None),
        crate::worker_choice::Abilities::default(),
    );
    page.worker_spawned(Ok(()));
    assert_eq!(loads(&page.on_worker(FromWorker::Ready, 0.0)), None);
    let out = page.lesson_arrived(
        LessonFrom::Site("mine.json".into()),
        Ok(lesson_json("bundled", TWO_STEPS)),
    );
    assert_eq!(loads(&out), None, "nothing fetched for the model: {out:?}");
    assert_eq!(
        page.lessons.recorded,
        Recorded::Fetching,
        "the recording is"
    );
    assert_eq!(
        page.model.status,
        model::ModelStatus::OnRequest {
            size: model::DownloadSize::Known {
                bytes: model::BUNDLED_BYTES,
                cached: false
            }
        }
    );
    let on_disk: u64 = ["config.json", "model.safetensors", "tokenizer.json"]
        .iter()
        .map(|f| {
            let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/www/models/kjv-gpt2/");
            std::fs::metadata(format!("{dir}{f}")).unwrap().len()
        })
        .sum();
    assert_eq!(
        model::BUNDLED_BYTES,
        on_disk,
        "summed from the model's files"
    );
    // A worker restart does not start the download either.
    assert_eq!(page.model.reload(), None);

    let out = page.run_live();
    assert!(
        matches!(loads(&out), Some(ToWorker::Load { .. })),
        "{out:?}"
    );
    let out = page.on_worker(loaded(), 0.0);
    assert!(
        sends_run(&out),
        "the step runs once the model is there: {out:?}"
    );
    // Asked once: a second press does nothing.
    assert_eq!(page.run_live(), Outcome::unchanged());
}

#[test]
fn an_embedded_lesson_on_a_hub_model_asks_its_size_and_an_address_model_waits_too() {
    let (mut page, out) = hub_lesson_arrives(embedded("mine.json", None));
    assert!(
        matches!(loads(&out), Some(ToWorker::Measure { ref repo }) if repo == "Qwen/Qwen2.5-0.5B"),
        "{out:?}"
    );
    page.model
        .measured("Qwen/Qwen2.5-0.5B", Some(990_000_000), true, None, None);
    assert_eq!(
        page.model.status,
        model::ModelStatus::OnRequest {
            size: model::DownloadSize::Known {
                bytes: 990_000_000,
                cached: true
            }
        }
    );
    // `?model=bundled&embed=1&lesson=`: the named model waits for the word as well.
    let (mut page, _) = Page::new(
        embedded("mine.json", Some("bundled")),
        crate::worker_choice::Abilities::default(),
    );
    page.worker_spawned(Ok(()));
    assert_eq!(loads(&page.on_worker(FromWorker::Ready, 0.0)), None);
    assert!(matches!(
        page.model.status,
        model::ModelStatus::OnRequest { .. }
    ));
}

#[test]
fn a_built_in_lesson_follows_the_readers_language_on_the_same_step_with_the_same_lanes() {
    let (mut page, _) = Page::new(
        Requested::default(),
        crate::worker_choice::Abilities::default(),
    );
    let walk = crate::lessons::built_in(|all| {
        all.iter()
            .position(|b| b.file == "walk-003-four-knobs.json")
            .unwrap()
    });
    let _ = page.open_built_in(walk);
    let _ = page.lesson_step(2);
    let lanes = page.editor.lanes.clone();
    let _ = page.lesson_in_language("zh-CN");
    assert_eq!(page.lessons.open.lesson.language, "zh-CN");
    assert_eq!(page.lessons.step, 2, "the step stays");
    assert_eq!(page.editor.lanes, lanes, "and so do the lanes");
    let _ = page.lesson_in_language("en");
    assert_eq!(page.lessons.open.from, LessonFrom::BuiltIn(walk));
    // A lesson from the site is the file it is, in its own language.
    let _ = page.lesson_arrived(
        LessonFrom::Site("mine.json".into()),
        Ok(lesson_json(
            "bundled",
            r#"[{"prose": "p", "prompt": "The", "lanes": [{}]}]"#,
        )),
    );
    assert!(!page.lesson_in_language("zh-CN").redraw);
}

#[test]
fn a_site_lessons_link_opens_the_same_lesson_its_recordings_fetched_from_the_site() {
    // The teacher's lesson, opened from the site, copied as a link.
    let (mut page, _) = Page::new(
        asked("course/mine.json", None),
        crate::worker_choice::Abilities::default(),
    );
    let _ = page.lesson_arrived(
        LessonFrom::Site("course/mine.json".into()),
        Ok(lesson_json("bundled", TWO_STEPS)),
    );
    let (value, left) = page.lessons.open.as_link().unwrap();
    assert_eq!(left, 0, "the recording travels as its path on the site");
    // A student opens the link: no fetch of the lesson, the same steps, and
    // the recording from where the site keeps it.
    let link = ntl_protocol::lesson::link::decode(&value);
    let (student, commands) = Page::new(
        Requested {
            lesson_link: Some(link),
            ..Requested::default()
        },
        crate::worker_choice::Abilities::default(),
    );
    assert_eq!(student.lessons.open.from, LessonFrom::Link);
    assert_eq!(student.lessons.open.lesson.steps.len(), 2);
    assert_eq!(student.editor.prompt, "Once upon a time");
    assert_eq!(
        commands
            .iter()
            .filter(|c| matches!(
                c,
                Command::FetchRecording { .. } | Command::FetchLesson { .. }
            ))
            .collect::<Vec<_>>(),
        [&Command::FetchRecording {
            url: "course/runs/one.json".into(),
            at: StepRef {
                from: LessonFrom::Link,
                step: 0
            }
        }]
    );
}

#[test]
fn a_picked_files_recordings_stay_behind_and_a_hub_lessons_link_asks_before_downloading() {
    let (mut page, _) = Page::new(
        Requested::default(),
        crate::worker_choice::Abilities::default(),
    );
    let _ = page.lesson_arrived(
        LessonFrom::File("mine.json".into()),
        Ok(lesson_json("openai-community/gpt2", TWO_STEPS)),
    );
    let (value, left) = page.lessons.open.as_link().unwrap();
    assert_eq!(
        left, 1,
        "a picked file's neighbour cannot be read from a link"
    );
    let lesson = ntl_protocol::lesson::link::decode(&value).unwrap();
    assert!(lesson.steps.iter().all(|s| s.recording.is_none()));
    let (mut student, _) = Page::new(
        Requested {
            lesson_link: Some(Ok(lesson)),
            ..Requested::default()
        },
        crate::worker_choice::Abilities::default(),
    );
    student.worker_spawned(Ok(()));
    let ready = student.on_worker(FromWorker::Ready, 0.0);
    // A hub model is measured and confirmed first, as a share link's is.
    assert!(
        !matches!(loads(&ready), Some(ToWorker::Load { .. })),
        "{ready:?}"
    );
}

#[test]
fn a_damaged_lesson_link_leaves_the_page_as_it_was_and_says_why() {
    let (page, _) = Page::new(
        Requested {
            lesson_link: Some(ntl_protocol::lesson::link::decode("1.%%%")),
            ..Requested::default()
        },
        crate::worker_choice::Abilities::default(),
    );
    assert!(matches!(page.lessons.open.from, LessonFrom::BuiltIn(_)));
    let said = page.lessons.error.unwrap().to_string();
    assert!(
        said.starts_with("this lesson link cannot be opened: its data is not base64url"),
        "{said}"
    );
}

#[test]
fn a_step_that_opens_with_the_lens_shows_it_at_its_token_from_the_recording_and_records_it_live() {
    let mut page = Page::new(
        Requested::default(),
        crate::worker_choice::Abilities::default(),
    )
    .0;
    let i = crate::lessons::built_in(|all| {
        all.iter()
            .position(|b| b.file == "logit-lens.json")
            .expect("the logit-lens lesson is built in")
    });
    let out = page.open_built_in(i);
    assert!(page.lens, "the step shows the lens");
    let [Command::FetchRecording { url, at }] = &fetches(&out)[..] else {
        panic!("{out:?}")
    };
    let doc: ntl_decoding::Document =
        serde_json::from_slice(&std::fs::read(format!("www/{url}")).unwrap()).unwrap();
    assert!(
        doc.runs[0].steps.iter().all(|s| s.lens.is_some()),
        "recorded with the lens"
    );
    let _ = page.recording_arrived(at.clone(), Ok(doc));
    assert_eq!(page.lessons.recorded, Recorded::Shown);
    assert_eq!(page.run.selected, Some((0, 0)), "its first token opens");
    // Live, the step's run asks for the lens.
    page.worker_spawned(Ok(()));
    let _ = page.on_worker(FromWorker::Ready, 0.0);
    let _ = page.on_worker(loaded(), 0.0);
    let out = page.start_run(RunKind::Generate);
    let lens = out.commands.iter().find_map(|c| match c {
        Command::Send(ToWorker::Run { request, .. }) => Some(request.lens),
        _ => None,
    });
    assert_eq!(lens, Some(true));
}

#[test]
fn a_step_with_a_tree_sets_the_panel_and_grows_it_once_its_run_is_done() {
    let mut page = Page::new(
        Requested::default(),
        crate::worker_choice::Abilities::default(),
    )
    .0;
    let i = crate::lessons::built_in(|all| {
        all.iter()
            .position(|b| b.file == "sample-tree.json")
            .expect("the sample-tree lesson is built in")
    });
    let out = page.open_built_in(i);
    assert_eq!(
        (page.tree.lane, page.tree.samples, page.tree.tokens),
        (0, 1000, 4)
    );
    // Its recording shows before the model is ready: nothing can grow yet.
    let [Command::FetchRecording { url, at }] = &fetches(&out)[..] else {
        panic!("{out:?}")
    };
    let doc: ntl_decoding::Document =
        serde_json::from_slice(&std::fs::read(format!("www/{url}")).unwrap()).unwrap();
    let out = page.recording_arrived(at.clone(), Ok(doc));
    assert!(!out
        .commands
        .iter()
        .any(|c| matches!(c, Command::Send(ToWorker::Tree { .. }))));
    // The model ready, the recording's tree grows; live, so does the run's.
    page.worker_spawned(Ok(()));
    let _ = page.on_worker(FromWorker::Ready, 0.0);
    let out = page.on_worker(loaded(), 0.0);
    assert!(out
        .commands
        .iter()
        .any(|c| matches!(c, Command::Send(ToWorker::Tree { .. }))));
    page.tree.make_mut().growing = None;
    let _ = page.start_run(RunKind::Generate);
    let run_id = page.run.running.unwrap();
    let prompt = page.editor.prompt.clone();
    let doc = ntl_decoding::Document {
        prompt_ids: vec![1],
        prompt,
        prompt_cropped: 0,
        runs: vec![],
    };
    let out = page.on_worker(
        FromWorker::Finished {
            run_id,
            document: doc,
            shown_texts: vec![],
            ms: 1.0,
            first_step_ms: None,
            memory_bytes: None,
        },
        0.0,
    );
    let tree = out.commands.iter().find_map(|c| match c {
        Command::Send(ToWorker::Tree { request, .. }) => Some((request.samples, request.tokens)),
        _ => None,
    });
    assert_eq!(tree, Some((1000, 4)));
}

#[test]
fn a_lesson_asking_for_eight_bits_loads_its_model_so_and_one_that_does_not_loads_it_as_stored() {
    for (weights, want) in [
        (r#""weights": "q8_0", "#, ntl_protocol::LoadWeights::Q8_0),
        ("", ntl_protocol::LoadWeights::AsStored),
    ] {
        let (mut page, _) = Page::new(
            asked("course/mine.json", None),
            crate::worker_choice::Abilities::default(),
        );
        page.worker_spawned(Ok(()));
        let _ = page.on_worker(FromWorker::Ready, 0.0);
        let json = format!(
            r#"{{"version": 1, "title": "Mine", "language": "en", "model": "bundled", {weights}"steps": {TWO_STEPS}}}"#
        );
        let out = page.lesson_arrived(
            LessonFrom::Site("course/mine.json".into()),
            Ok(json.into_bytes()),
        );
        assert!(
            matches!(loads(&out), Some(ToWorker::Load { weights, .. }) if weights == want),
            "{out:?}"
        );
        assert_eq!(
            page.model.eight_bit,
            want == ntl_protocol::LoadWeights::Q8_0
        );
    }
}

#[test]
fn a_lessons_weights_give_way_to_a_model_the_address_names() {
    let (mut page, _) = Page::new(
        asked("course/mine.json", Some("bundled")),
        crate::worker_choice::Abilities::default(),
    );
    page.worker_spawned(Ok(()));
    let _ = page.on_worker(FromWorker::Ready, 0.0);
    let json = format!(
        r#"{{"version": 1, "title": "Mine", "language": "en", "model": "bundled", "weights": "q8_0", "steps": {TWO_STEPS}}}"#
    );
    let _ = page.lesson_arrived(
        LessonFrom::Site("course/mine.json".into()),
        Ok(json.into_bytes()),
    );
    assert!(
        !page.model.eight_bit,
        "the address chose the model as stored"
    );
}
