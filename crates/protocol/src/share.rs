//! Share links: the page's prompt, four lane configs, the shared seed, the
//! model and an optional text to score, in one compact, versioned string
//! (`1.` + base64url of deflated JSON) that lives in the URL's fragment.
//!
//! A link is data from a stranger: decoding bounds every size, accepts a
//! model only as the bundled one or a hub repo id, and checks every lane's
//! fields by their HF names and types before the page sees them.

use crate::valid_repo_id;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use ntl_decoding::GenerationConfig;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

pub const VERSION: &str = "1";
/// The longest link fragment we read (browsers keep far more; teachers never need it).
pub const MAX_LINK_CHARS: usize = 16 * 1024;
const MAX_JSON_BYTES: usize = 64 * 1024;
pub const MAX_PROMPT_CHARS: usize = 8 * 1024;
pub const MAX_LANES: usize = 4;
/// The bundled offline model, by name in a link.
pub const BUNDLED: &str = "bundled";

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shared {
    pub prompt: String,
    /// Each lane's `generation_config` fields that differ from HF defaults.
    pub lanes: Vec<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_seed: Option<u64>,
    /// `bundled` or a hub repo id; absent = the page's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// A continuation to score in every lane instead of generating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ShareError(pub String);

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "this share link cannot be opened: {}", self.0)
    }
}

impl std::error::Error for ShareError {}

fn err<T>(m: impl Into<String>) -> Result<T, ShareError> {
    Err(ShareError(m.into()))
}

pub fn encode(s: &Shared) -> String {
    let json = serde_json::to_vec(s).expect("share state serialises");
    format!(
        "{VERSION}.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, 9))
    )
}

pub fn decode(link: &str) -> Result<Shared, ShareError> {
    if link.len() > MAX_LINK_CHARS {
        return err(format!(
            "it is {} characters long; at most {MAX_LINK_CHARS} are read",
            link.len()
        ));
    }
    let Some((version, data)) = link.split_once('.') else {
        return err("it has no version prefix (expected `1.`)");
    };
    if version != VERSION {
        return err(format!("it was made by another version of this page (link format `{}`; this page reads `{VERSION}`)", version.chars().take(8).collect::<String>()));
    }
    let packed = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .or_else(|_| err("its data is not base64url (was it cut off when copied?)"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_JSON_BYTES)
        .or_else(|_| err("its data is damaged or too large (was it cut off when copied?)"))?;
    let shared: Shared = serde_json::from_slice(&json)
        .or_else(|e| err(format!("its contents are not a page state: {e}")))?;
    check(&shared)?;
    Ok(shared)
}

fn check(s: &Shared) -> Result<(), ShareError> {
    if s.prompt.chars().count() > MAX_PROMPT_CHARS {
        return err(format!(
            "its prompt is longer than {MAX_PROMPT_CHARS} characters"
        ));
    }
    if s.score
        .as_ref()
        .is_some_and(|t| t.chars().count() > MAX_PROMPT_CHARS)
    {
        return err(format!(
            "its text to score is longer than {MAX_PROMPT_CHARS} characters"
        ));
    }
    if s.lanes.is_empty() || s.lanes.len() > MAX_LANES {
        return err(format!(
            "it holds {} lanes; the page has 1 to {MAX_LANES}",
            s.lanes.len()
        ));
    }
    for (i, lane) in s.lanes.iter().enumerate() {
        GenerationConfig::from_value(Value::Object(lane.clone()))
            .or_else(|e| err(format!("lane {}: {}", i + 1, e.message)))?;
    }
    match s.model.as_deref() {
        None | Some(BUNDLED) => Ok(()),
        Some(repo) if valid_repo_id(repo) => Ok(()),
        Some(other) => err(format!(
            "it names the model `{}`, which is neither the bundled model nor a hub repo id (owner/name)",
            other.chars().take(80).collect::<String>()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Shared {
        let lane = |v: Value| v.as_object().unwrap().clone();
        Shared {
            prompt: "The history of computers is ünïcode 🙂 <img src=x onerror=alert(1)>".into(),
            lanes: vec![
                lane(json!({})),
                lane(json!({"do_sample": true, "temperature": 0.7, "top_p": 0.9, "seed": 3})),
                lane(json!({"num_beams": 4, "early_stopping": "never"})),
                lane(json!({"penalty_alpha": 0.6, "top_k": 4, "stop_strings": ["."]})),
            ],
            shared_seed: Some(7),
            model: Some("distilbert/distilgpt2".into()),
            score: Some(" a story".into()),
        }
    }

    #[test]
    fn a_page_state_round_trips_through_its_link() {
        let s = sample();
        let link = encode(&s);
        assert!(link.starts_with("1."));
        assert!(
            link.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)),
            "URL-safe: {link}"
        );
        assert_eq!(decode(&link).unwrap(), s);
    }

    #[test]
    fn links_are_compact() {
        // Four configs, a prompt and a text to score fit in a short link, a third
        // shorter than the same JSON percent-encoded into a URL.
        let (link, json) = (encode(&sample()), serde_json::to_string(&sample()).unwrap());
        let percent: usize = json
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                    1
                } else {
                    3
                }
            })
            .sum();
        assert!(
            link.len() < 400 && link.len() * 3 < percent * 2,
            "{} vs {percent}",
            link.len()
        );
    }

    #[test]
    fn another_version_or_damaged_data_is_refused_with_a_reason() {
        let link = encode(&sample());
        assert!(decode(&link.replacen("1.", "2.", 1))
            .unwrap_err()
            .0
            .contains("another version"));
        assert!(decode("no-dot").unwrap_err().0.contains("version prefix"));
        assert!(decode("1.***").unwrap_err().0.contains("base64url"));
        assert!(decode(&link[..link.len() / 2]).is_err());
        assert!(decode(&format!("1.{}", URL_SAFE_NO_PAD.encode(b"not deflate"))).is_err());
        assert!(decode(&"1.A".repeat(MAX_LINK_CHARS))
            .unwrap_err()
            .0
            .contains("characters long"));
    }

    fn pack(v: Value) -> String {
        format!(
            "1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(
                v.to_string().as_bytes(),
                6
            ))
        )
    }

    #[test]
    fn a_link_may_name_only_the_bundled_model_or_a_hub_repo_id() {
        for bad in [
            "https://evil.example/model",
            "../../etc",
            "a/b/c",
            "javascript:alert(1)",
        ] {
            let e = decode(&pack(json!({"prompt": "", "lanes": [{}], "model": bad}))).unwrap_err();
            assert!(
                e.0.contains("neither the bundled model nor a hub repo id"),
                "{bad}: {e}"
            );
        }
        assert!(decode(&pack(
            json!({"prompt": "", "lanes": [{}], "model": "bundled"})
        ))
        .is_ok());
    }

    #[test]
    fn lanes_are_checked_by_hf_field_name_and_type() {
        let e = decode(&pack(
            json!({"prompt": "", "lanes": [{}, {"temprature": 0.5}]}),
        ))
        .unwrap_err();
        assert!(
            e.0.contains("lane 2") && e.0.contains("did you mean `temperature`"),
            "{e}"
        );
        assert!(decode(&pack(json!({"prompt": "", "lanes": [{"top_k": "ten"}]}))).is_err());
        assert!(decode(&pack(json!({"prompt": "", "lanes": []})))
            .unwrap_err()
            .0
            .contains("0 lanes"));
        assert!(decode(&pack(json!({"prompt": "", "lanes": [{}, {}, {}, {}, {}]}))).is_err());
        assert!(decode(&pack(json!({"prompt": "", "lanes": [{}], "script": "x"}))).is_err());
    }

    #[test]
    fn a_deflate_bomb_is_refused() {
        let huge = json!({"prompt": "a".repeat(1_000_000), "lanes": [{}]});
        let e = decode(&pack(huge)).unwrap_err();
        assert!(e.0.contains("too large"), "{e}");
    }

    #[test]
    fn an_invalid_but_well_typed_knob_still_opens_so_the_page_can_show_its_error() {
        // temperature 0 with sampling is a config error the lane shows next to the knob.
        assert!(decode(&pack(
            json!({"prompt": "", "lanes": [{"do_sample": true, "temperature": 0.0}]})
        ))
        .is_ok());
    }
}
