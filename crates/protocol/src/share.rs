//! Share links: the page's prompt, four lane configs, the shared seed, the
//! model and an optional text to score, in one compact, versioned string
//! (`1.` + base64url of deflated JSON) that lives in the URL's fragment.
//!
//! A link is data from a stranger: decoding bounds every size, accepts a
//! model only as the bundled one or a hub repo id, and checks every lane's
//! fields by their HF names and types before the page sees them.

use crate::valid_model_name;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use ntl_decoding::{ConfigError, LaneKnobs};
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    /// Each lane's knobs as set (HF's `generation_config` diff, or
    /// llama-server's fields after `"semantics": "llama.cpp"`).
    pub lanes: Vec<LaneKnobs>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_seed: Option<u64>,
    /// `bundled` or a hub repo id; absent = the page's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// How a safetensors model's matrices are kept (`q8_0`: 8 bits at load).
    #[serde(default, skip_serializing_if = "crate::LoadWeights::is_as_stored")]
    pub weights: crate::LoadWeights,
    /// A continuation to score in every lane instead of generating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// The step the compare view shows (0-based), so a link opens at it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// What guided lanes steer away from (`guidance_scale`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negative_prompt: Option<String>,
    /// Lanes (by index) that start from HF's library defaults rather than
    /// the model's generation_config.json.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub library_defaults: Vec<usize>,
    /// The conversation the prompt was rendered from with the model's chat
    /// template, so the chat editor opens on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat: Option<SharedChat>,
    /// Each lane's own model, by lane (`None`: the page's model), named as
    /// `model` is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lane_models: Vec<Option<String>>,
}

/// The most turns a link's conversation holds.
pub const MAX_CHAT_TURNS: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatRole {
    System,
    User,
    Assistant,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatTurn {
    pub role: ChatRole,
    pub content: String,
}

/// A chat model's conversation, as the chat editor holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedChat {
    pub turns: Vec<ChatTurn>,
    /// HF's `add_generation_prompt`: the assistant's turn opened after the last.
    pub add_generation_prompt: bool,
}

/// Why a link is refused; every message starts "this share link cannot be
/// opened" and ends with what a person can do about it, where anything.
#[derive(Debug, thiserror::Error)]
pub enum ShareError {
    #[error("{PREFIX}it is {0} characters long; at most {MAX_LINK_CHARS} are read")]
    TooLong(usize),
    #[error("{PREFIX}it has no version prefix (expected `1.`)")]
    NoVersion,
    #[error(
        "{PREFIX}it was made by another version of this page \
         (link format `{0}`; this page reads `{VERSION}`)"
    )]
    OtherVersion(String),
    #[error("{PREFIX}its data is not base64url (was it cut off when copied?)")]
    NotBase64(#[source] base64::DecodeError),
    #[error("{PREFIX}its data is damaged or too large (was it cut off when copied?)")]
    Damaged,
    #[error("{PREFIX}its contents are not a page state: {0}")]
    NotPageState(#[source] serde_json::Error),
    #[error("{PREFIX}its prompt is longer than {MAX_PROMPT_CHARS} characters")]
    PromptTooLong,
    #[error("{PREFIX}its text to score is longer than {MAX_PROMPT_CHARS} characters")]
    ScoreTooLong,
    #[error("{PREFIX}it holds {0} lanes; the page has 1 to {MAX_LANES}")]
    LaneCount(usize),
    #[error("{PREFIX}lane {}: {source}", .lane + 1)]
    Lane {
        lane: usize,
        #[source]
        source: ConfigError,
    },
    #[error(
        "{PREFIX}it names the model `{0}`, which is not the bundled model, a hub \
         repo id (owner/name) or a model folder beside the page (models/name/); one .gguf \
         of a hub repo is named owner/name:Q4_K_M"
    )]
    Model(String),
    #[error(
        "{PREFIX}lane {}'s model `{name}` is not the bundled model, a hub repo id \
         (owner/name) or a model folder beside the page (models/name/)",
        .lane + 1
    )]
    LaneModel { lane: usize, name: String },
    #[error("{PREFIX}its conversation holds {0} turns; at most {MAX_CHAT_TURNS} are read")]
    ChatTurns(usize),
    #[error("{PREFIX}a turn of its conversation is longer than {MAX_PROMPT_CHARS} characters")]
    ChatTurnTooLong,
}

const PREFIX: &str = "this share link cannot be opened: ";

pub fn encode(s: &Shared) -> String {
    let json = serde_json::to_vec(s).expect("share state serialises");
    format!(
        "{VERSION}.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, 9))
    )
}

pub fn decode(link: &str) -> Result<Shared, ShareError> {
    if link.len() > MAX_LINK_CHARS {
        return Err(ShareError::TooLong(link.len()));
    }
    let Some((version, data)) = link.split_once('.') else {
        return Err(ShareError::NoVersion);
    };
    if version != VERSION {
        return Err(ShareError::OtherVersion(version.chars().take(8).collect()));
    }
    let packed = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(ShareError::NotBase64)?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_JSON_BYTES)
        .map_err(|_| ShareError::Damaged)?;
    let value: Value = serde_json::from_slice(&json).map_err(ShareError::NotPageState)?;
    lanes(&value)?;
    let shared: Shared = serde_json::from_value(value).map_err(ShareError::NotPageState)?;
    check(&shared)?;
    Ok(shared)
}

/// Each lane read on its own first, so a bad knob is reported with its
/// lane and the decoding crate's message rather than as a shapeless state.
fn lanes(value: &Value) -> Result<(), ShareError> {
    let Some(lanes) = value.get("lanes").and_then(Value::as_array) else {
        return Ok(());
    };
    if lanes.is_empty() || lanes.len() > MAX_LANES {
        return Err(ShareError::LaneCount(lanes.len()));
    }
    for (lane, fields) in lanes.iter().enumerate() {
        LaneKnobs::from_value(fields.clone())
            .map_err(|source| ShareError::Lane { lane, source })?;
    }
    Ok(())
}

fn check(s: &Shared) -> Result<(), ShareError> {
    let too_long = |t: &str| t.chars().count() > MAX_PROMPT_CHARS;
    if too_long(&s.prompt) {
        return Err(ShareError::PromptTooLong);
    }
    if s.score.as_deref().is_some_and(too_long) {
        return Err(ShareError::ScoreTooLong);
    }
    if s.lanes.is_empty() || s.lanes.len() > MAX_LANES {
        return Err(ShareError::LaneCount(s.lanes.len()));
    }
    if let Some(chat) = &s.chat {
        if chat.turns.len() > MAX_CHAT_TURNS {
            return Err(ShareError::ChatTurns(chat.turns.len()));
        }
        if chat.turns.iter().any(|t| too_long(&t.content)) {
            return Err(ShareError::ChatTurnTooLong);
        }
    }
    if s.lane_models.len() > s.lanes.len() {
        return Err(ShareError::LaneCount(s.lane_models.len()));
    }
    for (lane, name) in s.lane_models.iter().enumerate() {
        if let Some(name) = name.as_deref().filter(|n| !valid_model_name(n)) {
            return Err(ShareError::LaneModel {
                lane,
                name: name.chars().take(80).collect(),
            });
        }
    }
    match s.model.as_deref() {
        None => Ok(()),
        Some(name) if valid_model_name(name) => Ok(()),
        Some(other) => Err(ShareError::Model(other.chars().take(80).collect())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Shared {
        let lane = |v: Value| LaneKnobs::from_value(v).unwrap();
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
            weights: crate::LoadWeights::Q8_0,
            score: Some(" a story".into()),
            step: Some(4),
            negative_prompt: Some("a dull answer".into()),
            library_defaults: vec![1, 3],
            lane_models: vec![],
            chat: Some(SharedChat {
                turns: vec![
                    ChatTurn {
                        role: ChatRole::System,
                        content: "Be brief.".into(),
                    },
                    ChatTurn {
                        role: ChatRole::User,
                        content: "什么是词元？".into(),
                    },
                ],
                add_generation_prompt: true,
            }),
        }
    }

    #[test]
    fn a_links_conversation_is_bounded_and_its_roles_are_the_chat_templates() {
        let mut s = sample();
        let turn = |role, content: &str| ChatTurn {
            role,
            content: content.into(),
        };
        s.chat.as_mut().unwrap().turns = vec![turn(ChatRole::User, "hi"); MAX_CHAT_TURNS + 1];
        assert!(matches!(
            decode(&encode(&s)),
            Err(ShareError::ChatTurns(33))
        ));
        s.chat.as_mut().unwrap().turns =
            vec![turn(ChatRole::User, &"x".repeat(MAX_PROMPT_CHARS + 1))];
        assert!(matches!(
            decode(&encode(&s)),
            Err(ShareError::ChatTurnTooLong)
        ));
        let json = br#"{"prompt": "", "lanes": [{}], "chat": {"turns": [{"role": "tool", "content": ""}], "add_generation_prompt": true}}"#;
        let link = format!(
            "1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json, 9))
        );
        assert!(matches!(decode(&link), Err(ShareError::NotPageState(_))));
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
    fn the_strategies_knobs_round_trip_through_a_link() {
        let lane = |v: Value| LaneKnobs::from_value(v).unwrap();
        let s = Shared {
            lanes: vec![
                lane(json!({"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 0.5})),
                lane(json!({"num_beams": 3, "force_words_ids": [[5, 6], [[7], [8, 9]]]})),
                lane(json!({"dola_layers": "high", "repetition_penalty": 1.2})),
                lane(json!({"do_sample": true, "dola_layers": [0, 2], "seed": 1})),
            ],
            ..sample()
        };
        assert_eq!(decode(&encode(&s)).unwrap(), s);
    }

    #[test]
    fn each_lanes_model_round_trips_and_a_hostile_or_extra_one_is_refused_by_lane() {
        let s = Shared {
            lane_models: vec![
                None,
                Some("models/tutorial-minigpt/".into()),
                None,
                Some("bundled".into()),
            ],
            ..sample()
        };
        assert_eq!(decode(&encode(&s)).unwrap(), s);
        for (lane, bad) in [(1, "../../etc/"), (3, "https://evil.example/m/")] {
            let mut hostile = s.clone();
            hostile.lane_models[lane] = Some(bad.into());
            let e = decode(&encode(&hostile)).unwrap_err();
            assert!(
                matches!(&e, ShareError::LaneModel { lane: l, name } if *l == lane && name == bad),
                "{e}"
            );
            assert!(e.to_string().contains(&format!("lane {}", lane + 1)), "{e}");
        }
        let extra = Shared {
            lane_models: vec![None; 5],
            ..sample()
        };
        assert!(matches!(
            decode(&encode(&extra)),
            Err(ShareError::LaneCount(5))
        ));
    }

    #[test]
    fn links_are_compact() {
        // Four configs, a prompt and a text to score fit in a short link, a third
        // shorter than the same JSON percent-encoded into a URL.
        let plain = Shared {
            chat: None,
            ..sample()
        };
        let (link, json) = (encode(&plain), serde_json::to_string(&plain).unwrap());
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
            .to_string()
            .contains("another version"));
        assert!(decode("no-dot")
            .unwrap_err()
            .to_string()
            .contains("version prefix"));
        assert!(decode("1.***")
            .unwrap_err()
            .to_string()
            .contains("base64url"));
        assert!(decode(&link[..link.len() / 2]).is_err());
        assert!(decode(&format!("1.{}", URL_SAFE_NO_PAD.encode(b"not deflate"))).is_err());
        assert!(decode(&"1.A".repeat(MAX_LINK_CHARS))
            .unwrap_err()
            .to_string()
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
    fn a_link_may_name_only_the_bundled_model_a_hub_repo_id_or_a_folder_beside_the_page() {
        for bad in [
            "https://evil.example/model",
            "../../etc",
            "a/b/c",
            "javascript:alert(1)",
            "//evil.example/models/",
            "../models/x/",
        ] {
            let e = decode(&pack(json!({"prompt": "", "lanes": [{}], "model": bad}))).unwrap_err();
            assert!(
                e.to_string().contains(
                    "not the bundled model, a hub repo id (owner/name) or a model folder"
                ),
                "{bad}: {e}"
            );
        }
        assert!(decode(&pack(
            json!({"prompt": "", "lanes": [{}], "model": "models/class-gpt2/"})
        ))
        .is_ok());
        assert!(decode(&pack(
            json!({"prompt": "", "lanes": [{}], "model": "bundled"})
        ))
        .is_ok());
    }

    #[test]
    fn a_llama_cpp_lane_round_trips_with_its_semantics_and_its_names_are_checked() {
        let lane = |v: Value| LaneKnobs::from_value(v).unwrap();
        let s = Shared {
            lanes: vec![
                lane(json!({"do_sample": true, "repetition_penalty": 1.1})),
                lane(
                    json!({"semantics": "llama.cpp", "repeat_penalty": 1.1, "samplers": ["top_k", "temperature"],
                            "logit_bias": [[13, false]], "mirostat": 2, "seed": 9}),
                ),
            ],
            ..sample()
        };
        assert_eq!(decode(&encode(&s)).unwrap(), s);
        let e = decode(&pack(
            json!({"prompt": "", "lanes": [{"semantics": "llama.cpp", "repetition_penalty": 1.1}]}),
        ))
        .unwrap_err();
        assert!(
            e.to_string().contains("did you mean `repeat_penalty`"),
            "{e}"
        );
    }

    #[test]
    fn lanes_are_checked_by_hf_field_name_and_type() {
        let e = decode(&pack(
            json!({"prompt": "", "lanes": [{}, {"temprature": 0.5}]}),
        ))
        .unwrap_err();
        assert!(
            e.to_string().contains("lane 2")
                && e.to_string().contains("did you mean `temperature`"),
            "{e}"
        );
        assert!(decode(&pack(json!({"prompt": "", "lanes": [{"top_k": "ten"}]}))).is_err());
        assert!(decode(&pack(json!({"prompt": "", "lanes": []})))
            .unwrap_err()
            .to_string()
            .contains("0 lanes"));
        assert!(decode(&pack(json!({"prompt": "", "lanes": [{}, {}, {}, {}, {}]}))).is_err());
        assert!(decode(&pack(json!({"prompt": "", "lanes": [{}], "script": "x"}))).is_err());
    }

    #[test]
    fn a_deflate_bomb_is_refused() {
        let huge = json!({"prompt": "a".repeat(1_000_000), "lanes": [{}]});
        let e = decode(&pack(huge)).unwrap_err();
        assert!(e.to_string().contains("too large"), "{e}");
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
