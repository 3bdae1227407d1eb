//! The page's colours that code (not the style sheet) needs: one per lane, the
//! same in the lane headings, the compare view, the plots and the step grid.
//! They are the style sheet's `--lane-N` variables, so the dark theme
//! changes them in one place; a standalone export gets the light ones.

/// The light theme's lane colours (`--lane-0` … `--lane-3` in `style.css`).
pub const LANE_COLORS: [&str; 4] = ["#c2410c", "#2563eb", "#15803d", "#7c3aed"];

const LANE_VARS: [&str; 4] = [
    "var(--lane-0)",
    "var(--lane-1)",
    "var(--lane-2)",
    "var(--lane-3)",
];

/// Lane `lane`'s colour, as a CSS value (for `style`, not SVG attributes).
pub fn lane_color(lane: usize) -> &'static str {
    LANE_VARS[lane % LANE_VARS.len()]
}

/// The lane colour variables with their light values, for an SVG that leaves
/// the page (it has no style sheet).
pub fn lane_color_definitions() -> String {
    LANE_COLORS
        .iter()
        .enumerate()
        .map(|(i, c)| format!("--lane-{i}:{c};"))
        .collect()
}
