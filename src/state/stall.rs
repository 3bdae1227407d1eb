//! How long a run may go without a word from the worker before the page
//! ends it: a step that never comes (a worker stuck in a kernel, a message
//! lost) must not leave the lanes saying "running…" for ever. `?stall=N`
//! sets it in seconds for a slow device or a long prompt on a large model.

/// The limit when the address sets none: a step of the largest model the
/// page lists takes well under a second here, a 1,000-token prefill of it
/// about 20 s.
pub const DEFAULT_SECONDS: u32 = 60;
/// The range `?stall=` may set; outside it the default holds.
pub const SECONDS: std::ops::RangeInclusive<u32> = 5..=3600;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StallLimit {
    pub seconds: u32,
}

impl Default for StallLimit {
    fn default() -> Self {
        StallLimit {
            seconds: DEFAULT_SECONDS,
        }
    }
}

impl StallLimit {
    /// `?stall=`'s value: whole seconds within [`SECONDS`], else the default.
    pub fn from_param(text: Option<&str>) -> StallLimit {
        text.and_then(|t| t.trim().parse::<u32>().ok())
            .filter(|s| SECONDS.contains(s))
            .map_or_else(StallLimit::default, |seconds| StallLimit { seconds })
    }

    pub fn ms(self) -> u32 {
        self.seconds * 1000
    }

    /// When a run last heard from the worker at `last` (ms; `None`: not
    /// since it started, which was one limit ago when the first check
    /// fires): `None` if it has stalled, else how long until the next check.
    pub fn next_check(self, last: Option<f64>, now: f64) -> Option<u32> {
        let idle = now - last?;
        let left = self.ms() as f64 - idle;
        // A timer may fire a few ms early; within 50 ms counts as due.
        (left > 50.0).then(|| left.ceil() as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_sets_the_limit_within_its_range_and_nothing_else_does() {
        assert_eq!(StallLimit::from_param(Some("120")).seconds, 120);
        for bad in [
            None,
            Some(""),
            Some("0"),
            Some("4"),
            Some("3601"),
            Some("-5"),
            Some("1e3"),
            Some("ten"),
        ] {
            assert_eq!(
                StallLimit::from_param(bad).seconds,
                DEFAULT_SECONDS,
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_run_stalls_once_a_whole_limit_passes_without_a_word() {
        let limit = StallLimit { seconds: 10 };
        assert_eq!(
            limit.next_check(None, 10_000.0),
            None,
            "no word since the start"
        );
        assert_eq!(limit.next_check(Some(4_000.0), 10_000.0), Some(4_000));
        assert_eq!(limit.next_check(Some(4_000.0), 14_000.0), None);
        assert_eq!(
            limit.next_check(Some(4_000.0), 13_980.0),
            None,
            "a timer a little early"
        );
    }
}
