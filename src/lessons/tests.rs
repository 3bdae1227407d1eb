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

#[test]
fn a_chinese_reader_is_offered_every_built_in_lesson_in_chinese_and_an_english_one_in_english() {
    let title = |i: usize| built_in(|all| all[i].lesson.title.clone());
    let language = |i: usize| built_in(|all| all[i].lesson.language.clone());
    let english = offered("en");
    let chinese = offered("zh-CN");
    assert_eq!(english.len(), chinese.len());
    assert_eq!(english[0], 0, "the first is four-runs, in English");
    assert_eq!(title(chinese[0]), "一个提示词，四次运行");
    assert!(english.iter().all(|&i| language(i) == "en"));
    assert!(
        chinese.iter().all(|&i| language(i) == "zh-CN"),
        "every lesson is translated"
    );
    for (&en, &zh) in english.iter().zip(&chinese) {
        assert_eq!(counterpart(en, "zh-CN"), zh);
        assert_eq!(counterpart(zh, "en"), en);
        assert_eq!(counterpart(zh, "zh-CN"), zh);
    }
}

/// What a question's answer is fixed by (the words aside).
fn answer(q: &ntl_protocol::lesson::Question) -> (usize, usize, usize) {
    use ntl_protocol::lesson::Question;
    match q {
        Question::NextToken { lane, step, .. } => (*lane, *step, 0),
        Question::WhichLane { answer, .. } => (0, 0, *answer),
        Question::Choice {
            answer, options, ..
        } => (options.len(), 0, *answer),
    }
}

/// A translation changes words only: a class switching language mid-lesson
/// keeps its step, its lanes, its recorded runs and its answers.
#[test]
fn a_translated_lesson_has_its_originals_steps_prompts_lanes_recordings_and_answers() {
    built_in(|all| {
        for (i, b) in all.iter().enumerate() {
            if b.lesson.language == "en" {
                continue;
            }
            let original = &all[counterpart(i, "en")].lesson;
            assert_ne!(counterpart(i, "en"), i, "{} translates a lesson", b.file);
            assert_eq!(b.lesson.model, original.model, "{}", b.file);
            assert_eq!(b.lesson.steps.len(), original.steps.len(), "{}", b.file);
            for (s, o) in b.lesson.steps.iter().zip(&original.steps) {
                assert_eq!(s.prompt, o.prompt, "{}", b.file);
                assert_eq!(s.lanes, o.lanes, "{}", b.file);
                assert_eq!(s.recording, o.recording, "{}", b.file);
                assert_eq!(s.printed, o.printed, "{}", b.file);
                assert_eq!(s.questions.len(), o.questions.len(), "{}", b.file);
                for (q, oq) in s.questions.iter().zip(&o.questions) {
                    assert_eq!(
                        std::mem::discriminant(q),
                        std::mem::discriminant(oq),
                        "{}",
                        b.file
                    );
                    assert_eq!(answer(q), answer(oq), "{}", b.file);
                }
                assert_ne!(s.prose, o.prose, "{}: the prose is translated", b.file);
            }
        }
    });
}

#[test]
fn every_built_in_lesson_fits_a_link_that_opens_it_with_its_recordings_on_the_site() {
    let count = built_in(|all| all.len());
    for i in 0..count {
        let open = OpenLesson::built_in(i).unwrap();
        let (value, left) = open.as_link().unwrap();
        assert_eq!(left, 0, "{}", open.lesson.title);
        // The README says every built-in lesson fits in 5,000 characters.
        assert!(
            value.len() < 5_000,
            "{}: {} characters",
            open.lesson.title,
            value.len()
        );
        let back = OpenLesson {
            lesson: RcEq::new(link::decode(&value).unwrap()),
            from: LessonFrom::Link,
        };
        assert_eq!(back.lesson.steps.len(), open.lesson.steps.len());
        for s in 0..open.lesson.steps.len() {
            assert_eq!(
                back.recording_url(s),
                open.recording_url(s),
                "{}",
                open.lesson.title
            );
            assert_eq!(back.lesson.steps[s].prompt, open.lesson.steps[s].prompt);
            assert_eq!(
                back.lesson.steps[s].questions,
                open.lesson.steps[s].questions
            );
        }
    }
}
