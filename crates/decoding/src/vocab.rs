//! Token bytes and text: what every token *is* as bytes (byte-level BPE), how it
//! is shown in tables, and how a stream of tokens becomes text without ever
//! showing a broken UTF-8 character.

/// Every token id's bytes, end to end in one buffer: a `Vec` per token is a
/// header and an allocation each, some 40 bytes a token in wasm (2 MB of a
/// 50k vocabulary), held for as long as the model.
#[derive(Debug, Clone)]
pub struct Vocab {
    bytes: Vec<u8>,
    /// Where each token's bytes end in `bytes` (token `i` starts where `i - 1` ends).
    ends: Vec<usize>,
}

/// GPT-2's `bytes_to_unicode` inverted: the printable character a byte-level
/// token uses for each byte back to the byte.
fn unicode_to_byte() -> std::collections::HashMap<char, u8> {
    let mut bs: Vec<u32> = (b'!' as u32..=b'~' as u32)
        .chain(0xA1..=0xAC)
        .chain(0xAE..=0xFF)
        .collect();
    let mut cs = bs.clone();
    let mut n = 0;
    for b in 0..256u32 {
        if !bs.contains(&b) {
            bs.push(b);
            cs.push(256 + n);
            n += 1;
        }
    }
    bs.into_iter()
        .zip(cs)
        .map(|(b, c)| (char::from_u32(c).expect("valid char"), b as u8))
        .collect()
}

impl Vocab {
    /// From byte-level BPE token strings indexed by id (`Ġthe` -> b" the").
    /// `special` marks added tokens whose text is literal (`<|endoftext|>`).
    pub fn from_byte_level(tokens: &[String], special: impl Fn(usize) -> bool) -> Vocab {
        Vocab::from_byte_level_fn(tokens.len(), |id| {
            Some((std::borrow::Cow::Borrowed(tokens[id].as_str()), special(id)))
        })
    }

    /// As [`Vocab::from_byte_level`], asking `token(id)` for each of `size`
    /// ids in turn (its text, and whether it is a special token; `None`: no
    /// token has that id, no bytes), so no list of every token's text is held.
    pub fn from_byte_level_fn<'a>(
        size: usize,
        mut token: impl FnMut(usize) -> Option<(std::borrow::Cow<'a, str>, bool)>,
    ) -> Vocab {
        let map = unicode_to_byte();
        let mut bytes = Vec::new();
        let mut ends = Vec::with_capacity(size);
        for id in 0..size {
            match token(id) {
                Some((t, true)) => bytes.extend_from_slice(t.as_bytes()),
                Some((t, false)) => {
                    for ch in t.chars() {
                        match map.get(&ch) {
                            Some(&b) => bytes.push(b),
                            None => bytes.extend_from_slice(ch.to_string().as_bytes()),
                        }
                    }
                }
                None => {}
            }
            ends.push(bytes.len());
        }
        bytes.shrink_to_fit();
        Vocab { bytes, ends }
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn bytes(&self, id: u32) -> &[u8] {
        let id = id as usize;
        let Some(&end) = self.ends.get(id) else {
            return &[];
        };
        let start = id.checked_sub(1).map_or(0, |i| self.ends[i]);
        &self.bytes[start..end]
    }

    /// A token as shown in a table: its text, with bytes that are not whole
    /// UTF-8 characters on their own written as `<0xE2>`.
    pub fn display(&self, id: u32) -> String {
        display_bytes(self.bytes(id))
    }

    /// The text of a whole sequence (lossy only where the sequence itself ends mid-character).
    pub fn decode(&self, ids: &[u32]) -> String {
        let bytes: Vec<u8> = ids
            .iter()
            .flat_map(|&id| self.bytes(id).iter().copied())
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The text of a whole sequence as the page shows it: [`Vocab::decode`]
    /// with bytes that make no whole character written as `<0xE4>`.
    pub fn shown_text(&self, ids: &[u32]) -> String {
        display_bytes(&self.concat_bytes(ids))
    }

    pub fn concat_bytes(&self, ids: &[u32]) -> Vec<u8> {
        ids.iter()
            .flat_map(|&id| self.bytes(id).iter().copied())
            .collect()
    }
}

pub fn display_bytes(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).expect("valid prefix"));
                let n = e.error_len().unwrap_or(bad.len()).max(1);
                for b in &bad[..n] {
                    out.push_str(&format!("<0x{b:02X}>"));
                }
                rest = &bad[n..];
            }
        }
    }
    out
}

/// The text of a growing byte stream, holding back an incomplete UTF-8 tail so a
/// streamed text never shows half a character (the next token completes it).
/// Bytes that can never make a character show as `<0x80>`, not U+FFFD: a
/// reader sees what the model wrote.
pub fn streamable_text(bytes: &[u8]) -> String {
    let keep = incomplete_tail(bytes);
    display_bytes(&bytes[..bytes.len() - keep])
}

/// The bytes a token's display text stands for: [`display_bytes`] read
/// backwards (`<0xE2>` is the byte E2, anything else its UTF-8).
pub fn display_text_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<0x") {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let tail = &rest[at..];
        match tail
            .get(3..5)
            .filter(|_| tail.as_bytes().get(5) == Some(&b'>'))
            .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            Some(b) => {
                out.push(b);
                rest = &tail[6..];
            }
            None => {
                out.extend_from_slice(b"<0x");
                rest = &tail[3..];
            }
        }
    }
    out.extend_from_slice(rest.as_bytes());
    out
}

/// Length of a trailing, possibly-completable UTF-8 sequence.
fn incomplete_tail(bytes: &[u8]) -> usize {
    for back in 1..=bytes.len().min(3) {
        let b = bytes[bytes.len() - back];
        if b & 0xC0 == 0x80 {
            continue; // continuation byte: look further back for the lead
        }
        return if utf8_len(b) > back { back } else { 0 };
    }
    0
}

/// The length a UTF-8 sequence's first byte announces (1 for a stray byte).
pub fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_level_tokens_map_back_to_bytes() {
        let v = Vocab::from_byte_level(
            &["Ġthe".into(), "Ċ".into(), "<|endoftext|>".into()],
            |id| id == 2,
        );
        assert_eq!(v.bytes(0), b" the");
        assert_eq!(v.bytes(1), b"\n");
        assert_eq!(v.bytes(2), b"<|endoftext|>");
    }

    #[test]
    fn an_id_without_a_token_has_no_bytes_and_moves_no_other_token() {
        let tokens = ["Ġa", "", "b"];
        let v = Vocab::from_byte_level_fn(4, |id| {
            (id != 1 && id < 3).then(|| (tokens[id].into(), false))
        });
        assert_eq!(v.len(), 4);
        assert_eq!(v.bytes(0), b" a");
        assert_eq!(v.bytes(1), b"");
        assert_eq!(v.bytes(2), b"b");
        assert_eq!(v.bytes(3), b"");
        assert_eq!(v.bytes(4), b"");
        assert_eq!(v.decode(&[2, 1, 0, 9]), "b a");
    }

    #[test]
    fn split_characters_are_held_back_until_complete() {
        let crab = "a🦀".as_bytes();
        for cut in 2..5 {
            assert_eq!(streamable_text(&crab[..cut]), "a", "cut at {cut}");
        }
        assert_eq!(streamable_text(crab), "a🦀");
        // A byte that can never become valid is shown, not held back forever.
        assert_eq!(streamable_text(&[b'a', 0x80]), "a<0x80>");
    }

    #[test]
    fn partial_bytes_display_as_hex() {
        assert_eq!(display_bytes(&[b' ', 0xF0, 0x9F]), " <0xF0><0x9F>");
    }

    #[test]
    fn display_text_reads_back_to_the_same_bytes() {
        for bytes in [
            &b" \xF0\x9F"[..],
            b"a\xE6\x88\x91b",
            b"\x80",
            b"<0x",
            b"<0xZZ>",
            b"",
        ] {
            assert_eq!(display_text_bytes(&display_bytes(bytes)), bytes);
        }
    }
}
