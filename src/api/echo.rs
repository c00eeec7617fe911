//! A client's values repeated in an error message or a log line, cut
//! after a few dozen characters: neither may grow with what a client sends.

/// Longest part of a client's value an error message repeats.
pub const MAX_ECHO_CHARS: usize = 64;

/// `value` quoted for an error message, cut after [`MAX_ECHO_CHARS`]
/// characters with "…": an error about a 20 MB string must not be 20 MB
/// of trailers.
pub fn echo(value: &str) -> String {
    let (kept, rest) = split_for_echo(value);
    if rest {
        format!("{kept:?}…")
    } else {
        format!("{kept:?}")
    }
}

/// `value` cut after [`MAX_ECHO_CHARS`] characters with "…", unquoted: a
/// client's value as a log field. A log line must not grow with what a
/// client sends.
pub fn cut(value: &str) -> String {
    let (kept, rest) = split_for_echo(value);
    if rest {
        format!("{kept}…")
    } else {
        kept.to_owned()
    }
}

/// The first [`MAX_ECHO_CHARS`] characters of `value`, and whether any
/// were left out.
fn split_for_echo(value: &str) -> (&str, bool) {
    match value.char_indices().nth(MAX_ECHO_CHARS) {
        None => (value, false),
        Some((at, _)) => (&value[..at], true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_values_are_cut_after_64_characters() {
        assert_eq!(echo("puzzles/x"), "\"puzzles/x\"");
        let long = "é".repeat(10_000);
        let echoed = echo(&long);
        assert_eq!(echoed, format!("{:?}…", "é".repeat(64)));
        assert_eq!(echo(&"a".repeat(64)), format!("{:?}", "a".repeat(64)));
    }
}
