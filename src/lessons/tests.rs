use super::address::{beside, check, LessonAddressError};
use super::*;

#[test]
fn every_built_in_lesson_parses_and_the_first_is_four_runs() {
    let titles = built_in(|all| {
        all.iter()
            .map(|b| b.lesson.title.clone())
            .collect::<Vec<_>>()
    });
    assert!(titles.len() >= 16, "{titles:?}");
    assert_eq!(titles[0], "Four runs, one prompt");
}

#[test]
fn a_step_with_fewer_lanes_keeps_the_first_lessons_for_the_rest() {
    let first_step = built_in_step("From logits to tokens: greedy, beam and sampling", 0);
    let lanes = step_lanes(&first_step);
    assert_eq!(lanes[0].hf().unwrap().max_new_tokens, Some(4));
    let first = step_lanes(&OpenLesson::built_in(0).unwrap().lesson.steps[0]);
    assert_eq!(lanes[1..], first[1..]);
}

#[test]
fn recordings_are_read_beside_their_lesson() {
    let four = OpenLesson::built_in(0).unwrap();
    assert_eq!(
        four.recording_url(0).as_deref(),
        Some("lessons/recordings/four-runs-1.json")
    );
    let site = OpenLesson {
        from: LessonFrom::Site("course/week1/lesson.json?v=2".into()),
        ..four.clone()
    };
    assert_eq!(
        site.recording_url(0).as_deref(),
        Some("course/week1/recordings/four-runs-1.json")
    );
    let picked = OpenLesson {
        from: LessonFrom::File("mine.json".into()),
        ..four
    };
    assert_eq!(picked.recording_url(0), None);
    assert_eq!(beside("lesson.json", "r.json"), "r.json");
}

#[test]
fn a_lesson_address_is_a_path_on_this_site() {
    for ok in [
        "lessons/four-runs.json",
        "/course/a.json",
        "a.json?v=1",
        "../shared/x.json",
    ] {
        assert_eq!(check(ok).as_deref(), Ok(ok), "{ok}");
    }
    for other in [
        "https://evil.example/l.json",
        "//evil.example/l.json",
        "javascript:alert(1)//.json",
        "data:application/json,{}.json",
        "\\\\evil\\l.json",
    ] {
        assert!(
            matches!(check(other), Err(LessonAddressError::OtherOrigin(_))),
            "{other}"
        );
    }
    assert_eq!(check(""), Err(LessonAddressError::Empty));
    assert!(matches!(
        check("lessons/"),
        Err(LessonAddressError::NotJson(_))
    ));
}
