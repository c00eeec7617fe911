use std::collections::HashMap;
use std::ffi::c_long;
use std::path::PathBuf;

fn main() {
    let defines = get_nauty_defines();

    #[cfg(feature = "bundled")]
    compile_nauty(&defines);

    // The Rust declarations are pre-generated (src/generated_bindings.rs)
    // instead of running bindgen here: bindgen needs libclang, which a
    // machine with only cargo and a C compiler does not have.
    if cfg!(feature = "bundled") {
        println!("cargo:rustc-link-lib=nauty_bundled");
    } else {
        println!("cargo:rustc-link-lib=nauty");
    }
}

#[cfg(feature = "bundled")]
fn compile_nauty<K: AsRef<str>, V: AsRef<str>>(
    defines: &HashMap<K, Option<V>>,
) {
    const NAUTY_DIR: &str = "nauty2_9_3";
    const NAUTY_HEADERS: [&str; 15] = [
        "gtools.h",
        "gutils.h",
        "naugroup.h",
        "naugstrings.h",
        "naurng.h",
        "nausparse.h",
        "nautaux.h",
        "nautinv.h",
        "naututil.h",
        "nautycliquer.h",
        "nauty.h",
        "planarity.h",
        "schreier.h",
        "traces.h",
        "sorttemplates.c",
    ];
    const NAUTY_SRC_FILES: [&str; 15] = [
        "nauty.c",
        "nautil.c",
        "nausparse.c",
        "naugraph.c",
        "schreier.c",
        "naurng.c",
        "traces.c",
        "gtools.c",
        "naututil.c",
        "nautinv.c",
        "gutil1.c",
        "gutil2.c",
        "gtnauty.c",
        "naugroup.c",
        "nautycliquer.c",
    ];

    for file in NAUTY_HEADERS.iter().chain(NAUTY_SRC_FILES.iter()) {
        println!("cargo:rerun-if-changed=src/{NAUTY_DIR}/{file}");
    }

    let mut cc_cmd = cc::Build::new();
    #[cfg(feature = "native")]
    cc_cmd.flag_if_supported("-march=native");
    #[cfg(feature = "popcnt")]
    {
        cc_cmd.flag_if_supported("-mpopcnt");
    }
    for (key, val) in defines.iter() {
        cc_cmd.define(key.as_ref(), val.as_ref().map(|v| v.as_ref()));
    }

    cc_cmd.warnings(false).files(
        NAUTY_SRC_FILES
            .iter()
            .map(|f| PathBuf::from_iter(["src", NAUTY_DIR, f])),
    );

    cc_cmd.compile("nauty_bundled");
}

fn get_nauty_defines() -> HashMap<&'static str, Option<&'static str>> {
    use std::env;

    if !cfg!(feature = "bundled") {
        return HashMap::new();
    }
    let mut defines = HashMap::new();

    const WORDSIZE_ENV_NAME: &str = "NAUTY_TRACES_WORDSIZE";
    const WORDSIZE_VAR_NAME: &str = "WORDSIZE";
    match env::var(WORDSIZE_ENV_NAME) {
        Ok(size) => {
            defines.insert(WORDSIZE_VAR_NAME, Some(&*size.leak()));
        }
        Err(env::VarError::NotPresent) => if c_long::BITS > 32 {
            // see section 3 in nauty manual (nauty 2.7r4)
            // TODO: this might be unnecessary, nauty sets it internally
            defines.insert(WORDSIZE_VAR_NAME, Some("64"));
        }
        Err(e) => panic!("Failed to fetch value of environment variable {WORDSIZE_ENV_NAME}: {e}")
    }

    const MAXN_ENV_NAME: &str = "NAUTY_TRACES_MAXN";
    const MAXN_VAR_NAME: &str = "MAXN";
    match env::var(MAXN_ENV_NAME) {
        Ok(size) => {
            defines.insert(MAXN_VAR_NAME, Some(&*size.leak()));
        }
        Err(env::VarError::NotPresent) => { }
        Err(e) => panic!("Failed to fetch value of environment variable {MAXN_ENV_NAME}: {e}")
    }

    #[cfg(feature = "tls")]
    defines.insert("USE_TLS", None);

    #[cfg(feature = "popcnt")]
    if is_x86_feature_detected!("popcnt") {
        defines.insert("HAVE_HWPOPCNT", Some("1"));
    }

    #[cfg(feature = "lzc")]
    if is_x86_feature_detected!("lzcnt") {
        defines.insert("HAVE_HWLZCNT", Some("1"));
    }

    defines
}
