//! Stopping criteria that look at the sequence: eos and HF's stop strings.

/// HF `StopStringCriteria`: a stop string matches when it occurs in the text of
/// the whole sequence and overlaps the final token's start — it may begin in
/// earlier tokens and may run past the end of the stop string inside the final
/// token ("st" + "opera" stops on "stop"), but an occurrence that ended before
/// the final token does not count, and neither does one wholly inside the final
/// token after its first byte.
pub fn stop_string_hit(text: &[u8], last_token_len: usize, stops: &[String]) -> bool {
    if last_token_len == 0 {
        return false;
    }
    let start_of_last = text.len() - last_token_len;
    stops.iter().any(|s| {
        let s = s.as_bytes();
        let n = s.len();
        let lo = (start_of_last + 1).saturating_sub(n);
        (lo..=start_of_last).any(|p| p + n <= text.len() && &text[p..p + n] == s)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(tokens: &[&str], stop: &str) -> bool {
        let text: String = tokens.concat();
        stop_string_hit(
            text.as_bytes(),
            tokens.last().unwrap().len(),
            &[stop.to_string()],
        )
    }

    #[test]
    fn matches_the_hf_documented_examples() {
        for t in [
            &["st", "op"][..],
            &["stop"],
            &["st", "opera"],
            &["sto", "pper"],
            &["las", "topper"],
            &["s", "to", "pped"],
        ] {
            assert!(hit(t, "stop"), "{t:?}");
        }
        for t in [
            &["stop", "at"][..],
            &["st", "op", "at"],
            &["st", "opera", "tion"],
        ] {
            assert!(!hit(t, "stop"), "{t:?}");
        }
    }
}
