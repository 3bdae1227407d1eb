//! How numbers and tokens look on the page.

/// A token as tables show it: whitespace made visible (`␣` for a space, `↵`
/// for a newline) and bytes that are part of a character as `⟨e6 88⟩`.
pub fn visible(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    for c in token.chars() {
        match c {
            ' ' => out.push('␣'),
            '\n' => out.push('↵'),
            '\t' => out.push('⇥'),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    // After the whitespace: the hex group's own spaces stay spaces.
    crate::token_bytes::byte_form(&out)
}

/// A token cut to fit a tree's box.
pub fn boxed(token: &str) -> String {
    let shown = visible(token);
    if shown.chars().count() <= 11 {
        shown
    } else {
        format!("{}…", shown.chars().take(10).collect::<String>())
    }
}

/// The prompt's last characters, for a tree's root box.
pub fn prompt_tail(prompt: &str) -> String {
    let chars: Vec<char> = visible(prompt).chars().collect();
    let start = chars.len().saturating_sub(10);
    format!(
        "{}{}",
        if start > 0 { "…" } else { "" },
        chars[start..].iter().collect::<String>()
    )
}

pub fn prob(p: f32) -> String {
    if p == 0.0 {
        "0".into()
    } else if p >= 0.001 {
        format!("{:.1}%", p * 100.0)
    } else {
        format!("{:.1e}", p)
    }
}

pub fn num(x: f32) -> String {
    format!("{x:.3}")
}

/// A KL divergence in nats, two significant digits: `1.2·10⁻⁴` below a
/// thousandth (where quantized weights' figures sit), `0.034` above.
pub fn nats(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if !x.is_finite() {
        return "∞".into();
    }
    if x >= 1e-3 {
        return if x < 1.0 {
            format!("{x:.3}")
        } else {
            format!("{x:.2}")
        };
    }
    let exp = x.log10().floor() as i32;
    let mantissa = x / 10f64.powi(exp);
    // 9.96·10⁻⁵ rounds to 10.0: one power up.
    let (mantissa, exp) = match format!("{mantissa:.1}").as_str() {
        "10.0" => (1.0, exp + 1),
        _ => (mantissa, exp),
    };
    let sup: String = exp
        .to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d as usize - '0' as usize],
        })
        .collect();
    format!("{mantissa:.1}·10{sup}")
}

#[cfg(test)]
#[test]
fn small_divergences_read_as_powers_of_ten() {
    assert_eq!(nats(1.23e-4), "1.2·10⁻⁴");
    assert_eq!(nats(9.96e-5), "1.0·10⁻⁴");
    assert_eq!(nats(3.9e-12), "3.9·10⁻¹²");
    assert_eq!(nats(0.0342), "0.034");
    assert_eq!(nats(2.5), "2.50");
    assert_eq!(nats(0.0), "0");
    assert_eq!(nats(f64::INFINITY), "∞");
}

/// A size as the hub shows it: decimal units, 1 MB = 10^6 bytes
/// (distilgpt2's 352,824,413-byte file is "352.8 MB" on the page as there).
pub fn bytes(n: u64) -> String {
    if n >= 1_000_000 {
        format!("{:.1} MB", n as f64 / 1e6)
    } else {
        format!("{:.0} kB", n as f64 / 1e3)
    }
}

#[cfg(test)]
#[test]
fn sizes_are_decimal_as_the_hub_counts_them() {
    assert_eq!(bytes(352_824_413), "352.8 MB");
    assert_eq!(bytes(988_097_824), "988.1 MB");
    assert_eq!(bytes(999_999), "1000 kB");
    assert_eq!(bytes(1_500), "2 kB");
}

/// Background tint for a token chosen with probability `p`: likely tokens
/// pale, surprising ones strong. The colour and its strength are the style
/// sheet's (`--tint`, `--tint-strength`), so the dark theme keeps text legible.
pub fn tint(p: f32) -> String {
    let surprise = (1.0 - p.clamp(0.0, 1.0)).powf(1.5);
    let alpha = 0.08 + 0.55 * surprise;
    format!("background-color: rgb(var(--tint) / calc({alpha:.2} * var(--tint-strength)))")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_visible() {
        assert_eq!(visible(" the\n"), "␣the↵");
        assert_eq!(visible(" <0xE6><0x88>"), "␣⟨e6 88⟩");
    }

    #[test]
    fn probabilities_read_as_percent_or_scientific() {
        assert_eq!(prob(0.4567), "45.7%");
        assert_eq!(prob(0.00012), "1.2e-4");
    }
}
