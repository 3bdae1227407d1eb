//! A hub repo of llama.cpp files (`unsloth/SmolLM2-135M-Instruct-GGUF`)
//! holds one `.gguf` per quantization and no `config.json`. The hub's tree
//! listing (`/api/models/{repo}/tree/main`) gives their names and sizes, the
//! user picks one, and links name it as llama.cpp's `-hf` flag does:
//! `owner/name:Q4_K_M` (a quant tag) or `owner/name:file.gguf` (the file).

use serde::{Deserialize, Serialize};

/// The listing's largest size read (a repo of a few hundred files).
pub const MAX_LISTING_BYTES: usize = 1 << 20;

/// Where the hub lists a repo's top-level files.
pub fn listing_url(repo: &str) -> String {
    format!("https://huggingface.co/api/models/{repo}/tree/main")
}

/// One `.gguf` file a repo offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GgufFile {
    /// Its name in the repo (`SmolLM2-135M-Instruct-Q4_K_M.gguf`).
    pub name: String,
    pub bytes: u64,
    /// Already whole in this browser's cache.
    #[serde(default)]
    pub cached: bool,
}

impl GgufFile {
    /// The quant tag its name ends with (`Q4_K_M`), upper-cased.
    pub fn tag(&self) -> Option<String> {
        quant_tag(&self.name)
    }

    /// Whether this engine reads the type its name says. llama.cpp's
    /// i-quants, ternary and MXFP4 types have no kernels here; a file
    /// named otherwise is tried, and the engine names any tensor it cannot run.
    pub fn runs_here(&self) -> bool {
        self.tag()
            .is_none_or(|t| !["IQ", "TQ", "MXFP4"].iter().any(|p| t.starts_with(p)))
    }
}

/// A hub model name as a link carries it: the repo, and which `.gguf` file.
#[derive(Debug, Clone, PartialEq)]
pub struct HubName<'a> {
    pub repo: &'a str,
    pub gguf: Option<&'a str>,
}

/// `owner/name` or `owner/name:SELECTOR`, the selector a quant tag or a
/// `.gguf` file's name: letters, digits, `-`, `_`, `.`, never a path.
pub fn parse_hub_name(name: &str) -> Option<HubName<'_>> {
    let (repo, gguf) = match name.split_once(':') {
        Some((repo, sel)) => (repo, Some(sel)),
        None => (name, None),
    };
    (crate::valid_repo_id(repo) && gguf.is_none_or(valid_selector))
        .then_some(HubName { repo, gguf })
}

/// A quant tag or a file name: nothing that could reach another path.
pub fn valid_selector(sel: &str) -> bool {
    !sel.is_empty()
        && sel.len() <= 160
        && !sel.starts_with('.')
        && !sel.contains("..")
        && sel
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// The name a link carries for a repo and its chosen file.
pub fn hub_name(repo: &str, gguf: Option<&str>) -> String {
    match gguf {
        Some(sel) => format!("{repo}:{sel}"),
        None => repo.to_string(),
    }
}

/// The quant tag a file's name ends with: the last `-`, `.` or `_`-separated
/// part that names a llama.cpp type (`distilgpt2.Q4_K_M.gguf`,
/// `qwen2.5-0.5b-instruct-q4_k_m.gguf`, `model-f16.gguf`), upper-cased.
pub fn quant_tag(name: &str) -> Option<String> {
    let stem = name.strip_suffix(".gguf").or(name.strip_suffix(".GGUF"))?;
    let upper = stem.to_ascii_uppercase();
    // A tag has underscores inside (Q4_K_M), so it starts after a `-` or `.`,
    // or after the `_` that ends a word no tag starts with.
    let starts = std::iter::once(0).chain(
        upper
            .char_indices()
            .filter(|(_, c)| "-._".contains(*c))
            .map(|(i, _)| i + 1),
    );
    starts
        .map(|i| &upper[i..])
        .find(|t| is_type_name(t))
        .map(String::from)
}

fn is_type_name(t: &str) -> bool {
    let plain = ["F32", "F16", "BF16", "FP16", "FP32", "MXFP4"];
    if plain.contains(&t) {
        return true;
    }
    // Q8_0, Q4_K_M, IQ4_XS, TQ1_0, Q4_0_4_4: a letter or two, a digit, then
    // `_`-joined parts of letters and digits.
    let body = t
        .strip_prefix("IQ")
        .or(t.strip_prefix("TQ"))
        .or(t.strip_prefix('Q'));
    body.is_some_and(|b| {
        let mut parts = b.split('_');
        parts
            .next()
            .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
            && parts.all(|p| {
                !p.is_empty() && p.len() <= 3 && p.chars().all(|c| c.is_ascii_alphanumeric())
            })
    })
}

/// What the listing says, with what it left out and why.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Listing {
    /// Single-file models, by name.
    pub files: Vec<GgufFile>,
    /// Parts of split files (`-00001-of-00003.gguf`): not read here.
    #[serde(default)]
    pub split: usize,
    /// `.safetensors` files beside them: the repo is a transformers model.
    #[serde(default)]
    pub has_safetensors: bool,
}

#[derive(Debug, Deserialize)]
struct TreeEntry {
    #[serde(rename = "type")]
    kind: String,
    path: String,
    #[serde(default)]
    size: u64,
    #[serde(default)]
    lfs: Option<Lfs>,
}

#[derive(Debug, Deserialize)]
struct Lfs {
    size: u64,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ListingError {
    #[error("the hub's file list for this repo is not a list of files: {0}")]
    Format(String),
    #[error(
        "the hub's file list for this repo is {0} bytes; at most {MAX_LISTING_BYTES} are read"
    )]
    TooLarge(usize),
}

/// The repo's `.gguf` files from the hub's tree listing. Projector files
/// (`mmproj-*.gguf`, a vision model's other half) are not models.
pub fn parse_listing(bytes: &[u8]) -> Result<Listing, ListingError> {
    if bytes.len() > MAX_LISTING_BYTES {
        return Err(ListingError::TooLarge(bytes.len()));
    }
    let entries: Vec<TreeEntry> =
        serde_json::from_slice(bytes).map_err(|e| ListingError::Format(e.to_string()))?;
    let mut out = Listing::default();
    for e in entries.into_iter().filter(|e| e.kind == "file") {
        let lower = e.path.to_ascii_lowercase();
        if lower.ends_with(".safetensors") {
            out.has_safetensors = true;
        }
        let model = lower.ends_with(".gguf")
            && !lower.starts_with("mmproj")
            && !e.path.contains('/')
            && valid_selector(&e.path);
        if !model {
            continue;
        }
        if is_split_part(&lower) {
            out.split += 1;
            continue;
        }
        out.files.push(GgufFile {
            bytes: e.lfs.map_or(e.size, |l| l.size),
            name: e.path,
            cached: false,
        });
    }
    out.files.sort_by(|a, b| a.name.cmp(&b.name));
    // A repo's paths are unique; a listing that repeats one keeps its first,
    // so a file's name always picks that file.
    out.files.dedup_by(|b, a| a.name == b.name);
    Ok(out)
}

/// `gguf-split`'s parts: `name-00001-of-00003.gguf`.
fn is_split_part(lower: &str) -> bool {
    let stem = lower.trim_end_matches(".gguf");
    let mut parts = stem.rsplit('-');
    let digits =
        |p: Option<&str>| p.is_some_and(|p| p.len() == 5 && p.bytes().all(|b| b.is_ascii_digit()));
    digits(parts.next()) && parts.next() == Some("of") && digits(parts.next())
}

/// llama.cpp's choice when a link names no file: Q4_K_M, as `-hf` takes it.
pub const DEFAULT_TAG: &str = "Q4_K_M";

#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PickError {
    #[error("the repo holds no single-file .gguf model{}", split_note(*.split))]
    NoFiles { split: usize },
    #[error("the repo has no file `{name}`; it holds {}", names(.files))]
    NoSuchFile { name: String, files: Vec<String> },
    #[error("no file in the repo is quantized as {tag}; it holds {}", names(.files))]
    NoSuchTag { tag: String, files: Vec<String> },
    #[error("{count} files in the repo are quantized as {tag}: {}; name the file instead (`repo:file.gguf`)", names(.files))]
    Ambiguous {
        tag: String,
        count: usize,
        files: Vec<String>,
    },
    #[error("the repo holds {} .gguf files and none is {DEFAULT_TAG}; choose one: {}", .files.len(), names(.files))]
    Choose { files: Vec<String> },
}

fn split_note(split: usize) -> String {
    match split {
        0 => String::new(),
        n => format!(" ({n} parts of split files, which are not read here: join them with llama.cpp's gguf-split --merge)"),
    }
}

fn names(files: &[String]) -> String {
    files.join(", ")
}

/// The file a selector names: a file's name exactly, or the one file whose
/// name ends with the quant tag; with none, the repo's only file or its Q4_K_M.
pub fn pick<'a>(listing: &'a Listing, sel: Option<&str>) -> Result<&'a GgufFile, PickError> {
    let files = &listing.files;
    let all = || files.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
    if files.is_empty() {
        return Err(PickError::NoFiles {
            split: listing.split,
        });
    }
    let by_tag = |tag: &str| -> Vec<&'a GgufFile> {
        let tag = tag.to_ascii_uppercase();
        files
            .iter()
            .filter(|f| f.tag().as_deref() == Some(tag.as_str()))
            .collect()
    };
    match sel {
        Some(name) if name.to_ascii_lowercase().ends_with(".gguf") => files
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| PickError::NoSuchFile {
                name: name.into(),
                files: all(),
            }),
        Some(tag) => match by_tag(tag).as_slice() {
            [one] => Ok(one),
            [] => Err(PickError::NoSuchTag {
                tag: tag.to_ascii_uppercase(),
                files: all(),
            }),
            many => Err(PickError::Ambiguous {
                tag: tag.to_ascii_uppercase(),
                count: many.len(),
                files: many.iter().map(|f| f.name.clone()).collect(),
            }),
        },
        None if files.len() == 1 => Ok(&files[0]),
        None => match by_tag(DEFAULT_TAG).as_slice() {
            [one] => Ok(one),
            _ => Err(PickError::Choose { files: all() }),
        },
    }
}

/// The selector a link keeps for a file: its tag when that names it alone
/// in the repo (`Q4_K_M`, as llama.cpp users type it), else its name.
pub fn selector_for(listing: &Listing, file: &GgufFile) -> String {
    match file.tag() {
        Some(tag) if pick(listing, Some(&tag)).is_ok_and(|f| f.name == file.name) => tag,
        _ => file.name.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(names: &[(&str, u64)]) -> Listing {
        let entries: Vec<serde_json::Value> = names
            .iter()
            .map(|(n, s)| {
                serde_json::json!({"type": "file", "oid": "x", "size": s, "path": n,
                    "lfs": {"oid": "y", "size": s, "pointerSize": 134}})
            })
            .collect();
        parse_listing(serde_json::to_string(&entries).unwrap().as_bytes()).unwrap()
    }

    #[test]
    fn quant_tags_are_read_from_the_names_hub_repos_use() {
        for (name, tag) in [
            ("SmolLM2-135M-Instruct-Q4_K_M.gguf", Some("Q4_K_M")),
            ("distilgpt2.Q8_0.gguf", Some("Q8_0")),
            ("qwen2.5-0.5b-instruct-q5_k_m.gguf", Some("Q5_K_M")),
            ("qwen2.5-0.5b-instruct-fp16.gguf", Some("FP16")),
            ("SmolLM2-135M-Instruct-IQ4_XS.gguf", Some("IQ4_XS")),
            ("model-bf16.gguf", Some("BF16")),
            ("SmolLM2-135M-Instruct-Q4_0_4_4.gguf", Some("Q4_0_4_4")),
            ("model.gguf", None),
            ("q8_0.gguf", Some("Q8_0")),
            ("model-Q4_K_M-imat.gguf", None),
            ("Qwen-chat.gguf", None),
            ("notes.txt", None),
        ] {
            assert_eq!(quant_tag(name).as_deref(), tag, "{name}");
        }
    }

    #[test]
    fn the_listing_keeps_top_level_single_file_models_with_their_lfs_sizes() {
        let body = br#"[
            {"type": "file", "oid": "a", "size": 1519, "path": ".gitattributes"},
            {"type": "file", "oid": "b", "size": 135, "path": "m-Q8_0.gguf", "lfs": {"oid": "c", "size": 144811872, "pointerSize": 135}},
            {"type": "file", "oid": "d", "size": 105454944, "path": "m-Q4_K_M.gguf"},
            {"type": "file", "oid": "e", "size": 9, "path": "mmproj-m-f16.gguf"},
            {"type": "file", "oid": "f", "size": 9, "path": "big-Q8_0-00001-of-00002.gguf"},
            {"type": "file", "oid": "g", "size": 9, "path": "big-Q8_0-00002-of-00002.gguf"},
            {"type": "directory", "oid": "h", "size": 0, "path": "Q2"},
            {"type": "file", "oid": "i", "size": 9, "path": "README.md"}
        ]"#;
        let l = parse_listing(body).unwrap();
        let got: Vec<(&str, u64)> = l.files.iter().map(|f| (f.name.as_str(), f.bytes)).collect();
        assert_eq!(
            got,
            [("m-Q4_K_M.gguf", 105454944), ("m-Q8_0.gguf", 144811872)]
        );
        assert_eq!(l.split, 2);
        assert!(!l.has_safetensors);
    }

    #[test]
    fn a_listing_that_is_not_a_file_list_is_refused() {
        assert!(matches!(
            parse_listing(b"{\"error\": \"x\"}"),
            Err(ListingError::Format(_))
        ));
        let huge = vec![b' '; MAX_LISTING_BYTES + 1];
        assert!(matches!(
            parse_listing(&huge),
            Err(ListingError::TooLarge(_))
        ));
    }

    #[test]
    fn a_selector_picks_by_file_name_or_by_tag_in_any_case() {
        let l = listing(&[("m-Q4_K_M.gguf", 1), ("m-Q8_0.gguf", 2), ("m-f16.gguf", 3)]);
        assert_eq!(pick(&l, Some("m-Q8_0.gguf")).unwrap().bytes, 2);
        assert_eq!(pick(&l, Some("q8_0")).unwrap().bytes, 2);
        assert_eq!(pick(&l, Some("F16")).unwrap().bytes, 3);
        assert_eq!(pick(&l, None).unwrap().bytes, 1, "llama.cpp's default");
        let err = pick(&l, Some("Q6_K")).unwrap_err();
        assert!(err.to_string().contains("m-Q8_0.gguf"), "{err}");
        assert!(matches!(
            pick(&l, Some("other.gguf")),
            Err(PickError::NoSuchFile { .. })
        ));
    }

    #[test]
    fn with_no_selector_and_no_q4_k_m_the_user_must_choose() {
        let l = listing(&[("m-Q5_K_M.gguf", 1), ("m-Q8_0.gguf", 2)]);
        assert!(matches!(pick(&l, None), Err(PickError::Choose { files }) if files.len() == 2));
        let one = listing(&[("m-Q8_0.gguf", 2)]);
        assert_eq!(pick(&one, None).unwrap().bytes, 2);
        let none = Listing {
            split: 3,
            ..Listing::default()
        };
        assert!(pick(&none, None)
            .unwrap_err()
            .to_string()
            .contains("gguf-split --merge"));
    }

    #[test]
    fn a_tag_two_files_share_is_ambiguous_and_links_keep_the_file_name() {
        let l = listing(&[("a-Q8_0.gguf", 1), ("b-Q8_0.gguf", 2), ("a-Q4_0.gguf", 3)]);
        assert!(matches!(
            pick(&l, Some("Q8_0")),
            Err(PickError::Ambiguous { count: 2, .. })
        ));
        assert_eq!(selector_for(&l, &l.files[1]), "a-Q8_0.gguf");
        assert_eq!(selector_for(&l, &l.files[0]), "Q4_0");
    }

    #[test]
    fn hub_names_take_a_selector_but_never_a_path() {
        assert_eq!(
            parse_hub_name("unsloth/SmolLM2-135M-Instruct-GGUF:Q4_K_M"),
            Some(HubName {
                repo: "unsloth/SmolLM2-135M-Instruct-GGUF",
                gguf: Some("Q4_K_M")
            })
        );
        assert_eq!(parse_hub_name("a/b").map(|n| n.gguf), Some(None));
        for bad in [
            "a/b:",
            "a/b:../x.gguf",
            "a/b:x/y.gguf",
            "a/b:.hidden",
            "a/b:x?y",
            "a:b/c",
        ] {
            assert_eq!(parse_hub_name(bad), None, "{bad}");
        }
        assert_eq!(hub_name("a/b", Some("Q8_0")), "a/b:Q8_0");
    }

    #[test]
    fn i_quants_are_marked_as_not_running_here() {
        let f = |n: &str| GgufFile {
            name: n.into(),
            bytes: 1,
            cached: false,
        };
        assert!(!f("m-IQ4_XS.gguf").runs_here());
        assert!(!f("m-TQ1_0.gguf").runs_here());
        assert!(f("m-Q4_K_M.gguf").runs_here());
        assert!(f("model.gguf").runs_here());
    }
}
