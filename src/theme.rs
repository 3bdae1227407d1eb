//! The page's colours that code (not the style sheet) needs: one per lane, the
//! same in the lane headings, the plots and the divergence note.

pub const LANE_COLORS: [&str; 4] = ["#c2410c", "#2563eb", "#15803d", "#7c3aed"];

/// Lane `lane`'s colour.
pub fn lane_color(lane: usize) -> &'static str {
    LANE_COLORS[lane % LANE_COLORS.len()]
}
