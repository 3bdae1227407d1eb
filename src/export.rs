//! A finished (or replayed) run as files for a lesson: the CLI's JSON
//! document, a CSV of every step's table, Markdown of the texts side by side
//! (and the plots as an SVG, which `download` takes from the page).

use ntl_decoding::{Document, LaneConfig, Stage};

/// The files a run can be saved as.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Export {
    Json,
    Csv,
    Markdown,
    PlotsSvg,
}

impl Export {
    /// The file's name and MIME type.
    pub fn file(self) -> (&'static str, &'static str) {
        match self {
            Export::Json => ("next-token-lab-run.json", "application/json"),
            Export::Csv => ("next-token-lab-steps.csv", "text/csv"),
            Export::Markdown => ("next-token-lab-lanes.md", "text/markdown"),
            Export::PlotsSvg => ("next-token-lab-plots.svg", "image/svg+xml"),
        }
    }

    /// The file's text, for the kinds made from the document alone.
    pub fn text(self, doc: &Document) -> Option<String> {
        match self {
            Export::Json => Some(json(doc)),
            Export::Csv => Some(csv(doc)),
            Export::Markdown => Some(markdown(doc)),
            Export::PlotsSvg => None,
        }
    }
}

pub fn json(doc: &Document) -> String {
    serde_json::to_string_pretty(doc).expect("documents serialise")
}

/// One CSV field: quoted when needed, and never read as a formula by a
/// spreadsheet (a token such as `=cmd|…` stays text).
fn field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

fn opt(x: Option<f32>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

/// Every candidate row of every step table, one line each.
pub fn csv(doc: &Document) -> String {
    let mut out = String::from(
        "lane,mode,step,chosen_id,chosen_token,forced,draw,kept,entropy,rank_in_table,\
         candidate_id,candidate_token,logit,raw_prob,score,prob,removed_by,chosen\n",
    );
    for (lane, run) in doc.runs.iter().enumerate() {
        for (i, s) in run.steps.iter().enumerate() {
            for (k, c) in s.top.iter().enumerate() {
                let row = [
                    (lane + 1).to_string(),
                    run.mode.to_string(),
                    (i + 1).to_string(),
                    s.token_id.to_string(),
                    field(&s.token),
                    s.forced.to_string(),
                    s.draw.map(|d| d.to_string()).unwrap_or_default(),
                    s.kept.to_string(),
                    s.entropy.to_string(),
                    (k + 1).to_string(),
                    c.id.to_string(),
                    field(&c.token),
                    c.logit.to_string(),
                    c.raw_prob.to_string(),
                    opt(c.score),
                    c.prob.to_string(),
                    field(c.removed_by.map(Stage::name).unwrap_or("")),
                    (c.id == s.token_id).to_string(),
                ];
                out += &row.join(",");
                out.push('\n');
            }
        }
    }
    out
}

/// Text for a Markdown table cell: no pipes, no raw HTML, line breaks kept visible.
fn cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace("\r\n", "<br>")
        .replace('\n', "<br>")
}

/// The lane's config as the fields that differ from its ecosystem's
/// defaults (a llama.cpp lane's with its `semantics`).
pub fn config_diff(c: &LaneConfig) -> String {
    ntl_decoding::LaneKnobs::differing(c).to_value().to_string()
}

pub fn markdown(doc: &Document) -> String {
    let mut out = format!("**Prompt:** {}\n\n", cell(&doc.prompt));
    out += "| | ";
    out += &(1..=doc.runs.len())
        .map(|i| format!("Lane {i}"))
        .collect::<Vec<_>>()
        .join(" | ");
    out += " |\n|---|";
    out += &"---|".repeat(doc.runs.len());
    out += "\n| mode | ";
    out += &doc
        .runs
        .iter()
        .map(|r| r.mode.to_string())
        .collect::<Vec<_>>()
        .join(" | ");
    out += " |\n| config | ";
    out += &doc
        .runs
        .iter()
        .map(|r| format!("`{}`", config_diff(&r.config).replace('|', "\\|")))
        .collect::<Vec<_>>()
        .join(" | ");
    out += " |\n| text | ";
    out += &doc
        .runs
        .iter()
        .map(|r| cell(&r.text))
        .collect::<Vec<_>>()
        .join(" | ");
    out += " |\n| tokens · stop | ";
    out += &doc
        .runs
        .iter()
        .map(|r| format!("{} · {}", r.token_ids.len(), r.stop_reason.as_str()))
        .collect::<Vec<_>>()
        .join(" | ");
    out += " |\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ntl_decoding::record::{Candidate, Run, Step, StopReason};
    use ntl_decoding::GenerationConfig;

    fn doc() -> Document {
        let cand = |id, token: &str, removed: bool| Candidate {
            id,
            token: token.into(),
            logit: 1.5,
            raw_prob: 0.25,
            score: (!removed).then_some(1.5),
            prob: if removed { 0.0 } else { 0.5 },
            removed_by: removed.then_some(Stage::Knob(ntl_decoding::Knob::TopK)),
        };
        let step = Step {
            token_id: 7,
            token: " a, \"b\"".into(),
            kept: 2,
            entropy: 0.6,
            raw_entropy: 2.0,
            rank: 1,
            chosen_raw_prob: 0.25,
            chosen_prob: 0.5,
            nucleus: [1, 2, 3],
            funnel: vec![],
            top: vec![cand(7, " a, \"b\"", false), cand(8, "=HYPERLINK(1)", true)],
            draw: Some(0.25),
            forced: false,
            beams: None,
            contrastive: None,
            dola: None,
            lens: None,
        };
        let run = |config: GenerationConfig, text: &str| Run {
            mode: config.mode(),
            config: config.into(),
            token_ids: vec![7],
            text: text.into(),
            stop_reason: StopReason::MaxNewTokens,
            sequences: vec![],
            steps: vec![step.clone()],
            model: None,
        };
        let sampled = GenerationConfig {
            do_sample: true,
            temperature: 0.7,
            ..Default::default()
        };
        Document {
            prompt_ids: vec![1],
            prompt: "Hi | <b>".into(),
            prompt_cropped: 0,
            runs: vec![
                run(GenerationConfig::default(), "x\ny"),
                run(sampled, "a|b"),
            ],
        }
    }

    #[test]
    fn json_export_is_the_cli_document_and_reads_back() {
        let d = doc();
        assert_eq!(serde_json::from_str::<Document>(&json(&d)).unwrap(), d);
    }

    #[test]
    fn csv_has_a_row_per_candidate_with_quoting_and_no_formulas() {
        let c = csv(&doc());
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(
            lines.len(),
            1 + 2 * 2,
            "header + 2 lanes × 1 step × 2 candidates"
        );
        assert!(
            lines[1].starts_with("1,greedy,1,7,\" a, \"\"b\"\"\",false,0.25,2,0.6,1,7,"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].contains(",'=HYPERLINK(1),"),
            "formula neutralised: {}",
            lines[2]
        );
        assert!(lines[2].ends_with(",0,top_k,false"), "{}", lines[2]);
        assert!(lines[3].starts_with("2,sample,"));
    }

    #[test]
    fn markdown_puts_the_lanes_side_by_side_without_breaking_the_table() {
        let m = markdown(&doc());
        assert!(m.contains("**Prompt:** Hi \\| &lt;b&gt;"), "{m}");
        assert!(m.contains("| text | x<br>y | a\\|b |"), "{m}");
        assert!(
            m.contains("| config | `{}` | `{\"do_sample\":true,\"temperature\":0.7"),
            "{m}"
        );
        assert!(
            m.contains("| tokens · stop | 1 · max_new_tokens | 1 · max_new_tokens |"),
            "{m}"
        );
        assert_eq!(m.lines().filter(|l| l.starts_with('|')).count(), 6);
    }
}
