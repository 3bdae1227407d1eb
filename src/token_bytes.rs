//! Tokens that hold part of a character, shown so a reader can follow them.
//! A byte-level tokenizer (GPT-2's, Qwen's) splits a Chinese character's
//! three UTF-8 bytes over tokens; the engine writes a byte that is not a
//! whole character as `<0xE6>` (and exports keep that), the page shows a run
//! of them as `⟨e6 88⟩` and names the character the bytes make.

use ntl_decoding::vocab::{display_text_bytes, utf8_len};
use std::ops::Range;
use std::rc::Rc;

/// A token's display text with each run of `<0xE6><0x88>` shown as `⟨e6 88⟩`.
pub fn byte_form(token: &str) -> String {
    if !token.contains("<0x") {
        return token.to_string();
    }
    let bytes = display_text_bytes(token);
    let mut out = String::new();
    let mut run: Vec<u8> = vec![];
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let (good, bad) = match std::str::from_utf8(rest) {
            Ok(s) => (s, &[][..]),
            Err(e) => {
                let (good, tail) = rest.split_at(e.valid_up_to());
                let n = e.error_len().unwrap_or(tail.len()).max(1);
                (std::str::from_utf8(good).unwrap_or_default(), &tail[..n])
            }
        };
        if !good.is_empty() {
            flush(&mut out, &mut run);
            out.push_str(good);
        }
        run.extend_from_slice(bad);
        rest = &rest[good.len() + bad.len()..];
    }
    flush(&mut out, &mut run);
    out
}

fn flush(out: &mut String, run: &mut Vec<u8>) {
    if !run.is_empty() {
        out.push('⟨');
        out.push_str(&hex(run));
        out.push('⟩');
        run.clear();
    }
}

/// Bytes as lower-case hex pairs: `e6 88 91`.
pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A character whose bytes are spread over several tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The character, once its bytes are all there (`None`: the text ends
    /// before they are, or they make no character).
    pub character: Option<char>,
    pub bytes: Vec<u8>,
    /// The tokens that hold its bytes.
    pub tokens: Range<usize>,
}

/// For each token (as the engine writes it), the character it holds part of
/// when that character is split over tokens; `None` for a token whose
/// characters are its own.
pub fn splits<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Vec<Option<Rc<Split>>> {
    // Where each token's bytes start in the concatenated text.
    let mut bytes = vec![];
    let mut owner = vec![];
    let mut count = 0;
    for (i, t) in tokens.into_iter().enumerate() {
        let b = display_text_bytes(t);
        owner.extend(std::iter::repeat_n(i, b.len()));
        bytes.extend(b);
        count = i + 1;
    }
    let mut out = vec![None; count];
    let mut at = 0;
    while at < bytes.len() {
        let len = utf8_len(bytes[at]).min(bytes.len() - at);
        let piece = &bytes[at..at + len];
        let character = std::str::from_utf8(piece)
            .ok()
            .and_then(|s| s.chars().next());
        // A lone bad byte is one piece; a cut or broken sequence stops at its
        // first byte that is not a continuation.
        let len = if character.is_some() {
            len
        } else {
            1 + piece[1..].iter().take_while(|&&b| b & 0xC0 == 0x80).count()
        };
        let (first, last) = (owner[at], owner[at + len - 1]);
        if first != last || character.is_none() {
            let split = Rc::new(Split {
                character,
                bytes: bytes[at..at + len].to_vec(),
                tokens: first..last + 1,
            });
            for slot in &mut out[first..=last] {
                *slot = Some(Rc::clone(&split));
            }
        }
        at += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_bytes_show_as_one_bracketed_hex_group() {
        assert_eq!(byte_form(" <0xE6><0x88>"), " ⟨e6 88⟩");
        assert_eq!(byte_form("<0x91>"), "⟨91⟩");
        assert_eq!(byte_form("a<0xFF>b<0xE6>"), "a⟨ff⟩b⟨e6⟩");
        assert_eq!(byte_form(" the"), " the");
        assert_eq!(byte_form("我"), "我");
    }

    #[test]
    fn a_character_split_over_tokens_is_named_on_every_piece() {
        // " 我们" through GPT-2: " <0xE6><0x88>", "<0x91>", "们".
        let s = splits([" <0xE6><0x88>", "<0x91>", "们"]);
        let wo = s[0].as_deref().unwrap();
        assert_eq!(wo.character, Some('我'));
        assert_eq!(wo.bytes, [0xE6, 0x88, 0x91]);
        assert_eq!(wo.tokens, 0..2);
        assert_eq!(s[1].as_deref(), Some(wo));
        assert_eq!(s[2], None, "a whole character in one token is its own");
    }

    #[test]
    fn a_text_cut_mid_character_names_the_dangling_bytes_without_a_character() {
        let s = splits(["a", "<0xE6>", "<0x88>"]);
        assert_eq!(s[0], None);
        let cut = s[1].as_deref().unwrap();
        assert_eq!((cut.character, cut.tokens.clone()), (None, 1..3));
        assert_eq!(cut.bytes, [0xE6, 0x88]);
        let stray = splits(["<0x80>"]);
        assert_eq!(stray[0].as_deref().unwrap().character, None);
    }
}
