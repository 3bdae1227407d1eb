//! A small lesson in a link: `#lesson=1.<deflated JSON, base64url>`, as a
//! share link carries a page. A teacher can hand a lesson to a class without
//! hosting a file; the link is a stranger's data like any lesson file, so it
//! goes through [`super::parse`] after it is unpacked, with the same bounds.
//! Inline recordings do not travel (they are documents of tens of kB); a
//! recording the lesson names as a path on the page's site does.

use super::{Lesson, LessonError, Recording, MAX_LESSON_BYTES};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

/// The link format's version, before the first `.`.
pub const LINK_VERSION: &str = "1";

/// The longest lesson link read or written: longer lessons are files,
/// opened with `?lesson=`. Every built-in lesson fits in a quarter of it.
pub const MAX_LESSON_LINK_CHARS: usize = 32 * 1024;

/// Why a lesson link cannot be opened; every message starts "this lesson
/// link cannot be opened".
#[derive(Debug, thiserror::Error)]
pub enum LessonLinkError {
    #[error("{PREFIX}it is {0} characters long; at most {MAX_LESSON_LINK_CHARS} are read")]
    TooLong(usize),
    #[error("{PREFIX}it has no version prefix (expected `1.`)")]
    NoVersion,
    #[error(
        "{PREFIX}it was made by another version of this page (link format `{0}`; this page reads \
         `{LINK_VERSION}`)"
    )]
    OtherVersion(String),
    #[error("{PREFIX}its data is not base64url (was it cut off when copied?)")]
    NotBase64,
    #[error("{PREFIX}its data is damaged or too large (was it cut off when copied?)")]
    Damaged,
    /// Unpacked, it is not a lesson this page opens.
    #[error(transparent)]
    Lesson(#[from] LessonError),
}

const PREFIX: &str = "this lesson link cannot be opened: ";

/// A lesson too long for a link, with its length as a link.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "this lesson is {chars} characters as a link; a link holds at most \
     {MAX_LESSON_LINK_CHARS}: put the file on the course site and link it with `?lesson=`"
)]
pub struct TooLongForALink {
    pub chars: usize,
}

/// The lesson as a link's fragment value (after `#lesson=`), and how many
/// inline recordings it left behind.
pub fn encode(lesson: &Lesson) -> Result<(String, usize), TooLongForALink> {
    let mut lesson = lesson.clone();
    let mut dropped = 0;
    for step in &mut lesson.steps {
        if matches!(step.recording, Some(Recording::Inline(_))) {
            step.recording = None;
            dropped += 1;
        }
    }
    let json = serde_json::to_vec(&lesson).expect("a lesson serialises");
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    let link = format!("{LINK_VERSION}.{}", URL_SAFE_NO_PAD.encode(packed));
    match link.len() {
        chars if chars > MAX_LESSON_LINK_CHARS => Err(TooLongForALink { chars }),
        _ => Ok((link, dropped)),
    }
}

/// The lesson a link's fragment value holds, checked as a lesson file is.
pub fn decode(link: &str) -> Result<Lesson, LessonLinkError> {
    if link.len() > MAX_LESSON_LINK_CHARS {
        return Err(LessonLinkError::TooLong(link.len()));
    }
    let Some((version, data)) = link.split_once('.') else {
        return Err(LessonLinkError::NoVersion);
    };
    if version != LINK_VERSION {
        return Err(LessonLinkError::OtherVersion(
            version.chars().take(8).collect(),
        ));
    }
    let packed = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|_| LessonLinkError::NotBase64)?;
    // One byte over the file limit, so `parse` reports a lesson too large
    // in its own words rather than as damage.
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_LESSON_BYTES + 1)
        .map_err(|_| LessonLinkError::Damaged)?;
    Ok(super::parse(&json)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::parse;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;

    fn lesson() -> Lesson {
        parse(
            r#"{"version": 1, "title": "Temperature, by hand", "language": "zh-CN",
                 "steps": [
                   {"title": "低温", "prose": "*看看* 概率。", "prompt": "The cat",
                    "lanes": [{"max_new_tokens": 4}, {"do_sample": true, "temperature": 0.3, "seed": 1}],
                    "recording": "lessons/recordings/t-1.json",
                    "questions": [{"kind": "which_lane", "ask": "哪条？", "answer": 2}]},
                   {"prompt": "A dog", "lanes": [{"max_new_tokens": 2}]}
                 ]}"#
                .as_bytes(),
        )
        .unwrap()
    }

    #[test]
    fn a_lesson_travels_whole_in_a_link_recording_paths_included() {
        let l = lesson();
        let (link, dropped) = encode(&l).unwrap();
        assert_eq!(dropped, 0);
        assert!(link.starts_with("1.") && link.len() < 1000, "{link}");
        assert!(link[2..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert_eq!(decode(&link).unwrap(), l);
    }

    #[test]
    fn inline_recordings_stay_behind_and_are_counted() {
        let mut l = lesson();
        let doc = ntl_decoding::Document {
            prompt_ids: vec![1],
            prompt: "A dog".into(),
            prompt_cropped: 0,
            runs: vec![],
        };
        l.steps[1].recording = Some(Recording::Inline(Box::new(doc)));
        let (link, dropped) = encode(&l).unwrap();
        assert_eq!(dropped, 1);
        assert_eq!(decode(&link).unwrap().steps[1].recording, None);
    }

    #[test]
    fn a_lesson_too_long_for_a_link_says_how_long_and_what_to_do() {
        let mut l = lesson();
        // Prose that does not compress: a pseudo-random walk through CJK.
        let mut x = 7u32;
        for step in &mut l.steps {
            step.prose = (0..9_000)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    char::from_u32(0x4e00 + (x >> 16) % 0x5000).unwrap()
                })
                .collect();
        }
        let e = encode(&l).unwrap_err();
        assert!(e.chars > MAX_LESSON_LINK_CHARS);
        assert!(e.to_string().contains("`?lesson=`"), "{e}");
    }

    #[test]
    fn a_hostile_or_cut_link_is_refused_with_a_reason() {
        let (link, _) = encode(&lesson()).unwrap();
        let cases: Vec<(String, &str)> = vec![
            ("x".repeat(MAX_LESSON_LINK_CHARS + 1), "characters long"),
            ("abc".into(), "no version prefix"),
            (format!("2{}", &link[1..]), "another version"),
            ("1.%%%".into(), "not base64url"),
            (link[..link.len() / 2].to_string(), "cut off when copied"),
        ];
        for (bad, says) in cases {
            let e = decode(&bad).unwrap_err();
            assert!(e.to_string().contains(says), "{bad:.40}: {e}");
        }
        // A deflate bomb: a small link that unpacks past the file limit.
        let bomb = vec![b' '; MAX_LESSON_BYTES * 4];
        let packed = miniz_oxide::deflate::compress_to_vec(&bomb, 9);
        let link = format!("1.{}", URL_SAFE_NO_PAD.encode(packed));
        assert!(link.len() < MAX_LESSON_LINK_CHARS, "{}", link.len());
        assert!(matches!(decode(&link), Err(LessonLinkError::Damaged)));
        // Unpacked but not a lesson: the lesson format's own message.
        let packed = miniz_oxide::deflate::compress_to_vec(br#"{"version": 1, "steps": []}"#, 9);
        let link = format!("1.{}", URL_SAFE_NO_PAD.encode(packed));
        let e = decode(&link).unwrap_err();
        assert!(matches!(e, LessonLinkError::Lesson(_)), "{e}");
        assert!(
            e.to_string().starts_with("this lesson cannot be opened"),
            "{e}"
        );
    }
}
