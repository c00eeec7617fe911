//! The vector instructions the canonical form may use, as a token that
//! only run-time detection makes.
//!
//! The form's inner loops have AVX-512F versions (`runs`) whose
//! instructions fault on a processor without it. They are reached only
//! through safe functions that take an [`Avx512`], and an `Avx512` exists
//! only where [`Avx512::detect`] found the instructions: a caller that
//! holds one has what those functions need, and no caller writes `unsafe`
//! for them. Where there is no token the scalar loops run, and they give
//! the same form, byte for byte.
//!
//! `PUZZLED_SIMD=off` in the environment turns every vector path off: no
//! token is made, whatever the processor has. It is read once, on the
//! first detection, so a process never mixes the two. It exists so that
//! the scalar loops can be tested (CI runs the canonical-hash tests with it
//! on a machine that has AVX-512) and so that a suspected fault in the
//! vector paths can be ruled out in production without a rebuild. `off`,
//! `0`, `false` or `no` (any case) turn them off; unset, empty, `on`, `1`,
//! `true` or `yes` leave them to detection; any other value is reported
//! and leaves them to detection too.

use std::sync::OnceLock;

/// The variable that turns the vector paths off.
pub const SWITCH: &str = "PUZZLED_SIMD";

/// Proof that this processor runs AVX-512F and that the vector paths are
/// switched on. Zero-sized; its field is private, so [`Avx512::detect`] is
/// the only way to get one.
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

impl Avx512 {
    /// A token if the processor has AVX-512F and [`SWITCH`] is not `off`.
    /// Detected once per process.
    pub fn detect() -> Option<Avx512> {
        static DETECTED: OnceLock<Option<Avx512>> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            if switched_off(std::env::var_os(SWITCH).as_deref()) {
                return None;
            }
            has_avx512f().then_some(Avx512(()))
        })
    }
}

/// Whether the variable's value turns the vector paths off (module docs);
/// a value it does not know is reported and leaves them on.
fn switched_off(value: Option<&std::ffi::OsStr>) -> bool {
    let Some(value) = value else {
        return false;
    };
    let is = |v: &str, words: &[&str]| words.iter().any(|w| v.eq_ignore_ascii_case(w));
    match value.to_str().map(str::trim) {
        Some(v) if is(v, &["off", "0", "false", "no"]) => true,
        Some(v) if v.is_empty() || is(v, &["on", "1", "true", "yes"]) => false,
        _ => {
            tracing::warn!(
                value = %value.to_string_lossy(),
                "{SWITCH} is neither `on` nor `off`; the vector paths stay on where the processor has them"
            );
            false
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn has_avx512f() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
}

#[cfg(not(target_arch = "x86_64"))]
fn has_avx512f() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn only_an_off_value_turns_the_vector_paths_off() {
        for off in ["off", " OFF ", "0", "false", "No"] {
            assert!(switched_off(Some(OsStr::new(off))), "{off:?}");
        }
        for on in [
            None,
            Some(""),
            Some("on"),
            Some("1"),
            Some("Yes"),
            Some("of"),
        ] {
            assert!(!switched_off(on.map(OsStr::new)), "{on:?}");
        }
    }

    /// The token says what the environment and processor say.
    #[test]
    fn detection_follows_the_switch_and_the_processor() {
        let off = switched_off(std::env::var_os(SWITCH).as_deref());
        assert_eq!(Avx512::detect().is_some(), !off && has_avx512f());
    }
}
