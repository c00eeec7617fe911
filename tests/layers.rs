//! The layer rules of docs/design.md, checked by reading the sources: each
//! file's `crate::` and `super::` paths are resolved to the files they name,
//! and the rules are stated over that graph. A rule broken here is a rule
//! broken in the code, whatever the compiler accepts.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers from the bottom up: a file may name its own layer and those
/// below it, never one above.
const LAYERS: [&str; 9] = [
    "graph", "solver", "puzzle", "canon", "store", "app", "api", "server", "cli",
];

/// Modules any layer may read, which themselves import nothing of the crate
/// (`testkit` is read by the layers' tests alone).
const LEAVES: [&str; 4] = ["config", "metrics", "splitmix", "testkit"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file: `src/app/solving.rs` is
/// `["app", "solving"]`, `src/app/mod.rs` is `["app"]`.
fn module_of(file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src()).unwrap().with_extension("");
    let mut path: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        path.pop();
    }
    path
}

/// The file that defines the longest prefix of `module` that has one.
fn file_of(module: &[String]) -> Option<PathBuf> {
    (1..=module.len()).rev().find_map(|len| {
        let base = module[..len]
            .iter()
            .fold(src(), |path, segment| path.join(segment));
        [base.with_extension("rs"), base.join("mod.rs")]
            .into_iter()
            .find(|candidate| candidate.is_file())
    })
}

/// The code of a file without comments, string contents and inline test
/// modules (whose `super::` is the file itself).
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &text[..at],
        None => text,
    };
    let mut code = String::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut in_string = false;
        for c in line.chars() {
            if c == '"' {
                in_string = !in_string;
            } else if !in_string {
                code.push(c);
            }
        }
        code.push('\n');
    }
    code
}

/// Every module path `code` names through `crate::` or `super::`, braces
/// of a `use` opened one level (`crate::graph::{self, file::Numbering}`
/// names `graph` and `graph::file`).
fn named_modules(module: &[String], code: &str) -> Vec<Vec<String>> {
    let is_path_char = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let mut named = Vec::new();
    for (root, start) in [("crate::", 0usize), ("super::", 1)] {
        for (at, _) in code.match_indices(root) {
            if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let rest = &code[at..];
            let path: String = rest.chars().take_while(|&c| is_path_char(c)).collect();
            let mut base: Vec<String> = if start == 0 {
                Vec::new()
            } else {
                module[..module.len().saturating_sub(1)].to_vec()
            };
            let segments: Vec<&str> = path.split("::").skip(1).filter(|s| !s.is_empty()).collect();
            let mut supers = segments.iter().take_while(|&&s| s == "super").count();
            while supers > 0 {
                base.pop();
                supers -= 1;
            }
            let base: Vec<String> = base
                .into_iter()
                .chain(
                    segments
                        .iter()
                        .skip_while(|&&s| s == "super")
                        .map(|s| s.to_string()),
                )
                .collect();
            named.push(base.clone());
            if let Some(group) = rest[path.len()..].strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for item in group.split(',').filter(|item| item.contains("::")) {
                    let mut inner = base.clone();
                    inner.extend(item.trim().split("::").map(str::to_owned));
                    named.push(inner);
                }
            }
        }
    }
    named
}

/// Each source file and the other files it names.
fn imports() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files
        .into_iter()
        .map(|file| {
            let module = module_of(&file);
            let code = code_of(&std::fs::read_to_string(&file).unwrap());
            let named = named_modules(&module, &code)
                .iter()
                .filter_map(|m| file_of(m))
                .filter(|target| *target != file)
                .collect();
            (file, named)
        })
        .collect()
}

fn layer_of(file: &Path) -> String {
    module_of(file).first().cloned().unwrap_or_default()
}

fn shown(file: &Path) -> String {
    file.strip_prefix(src()).unwrap().display().to_string()
}

#[test]
fn no_file_names_a_layer_above_its_own() {
    let rank = |layer: &str| LAYERS.iter().position(|&l| l == layer);
    let mut broken = Vec::new();
    for (file, targets) in imports() {
        let from = layer_of(&file);
        for target in targets {
            let to = layer_of(&target);
            let allowed = match (rank(&from), rank(&to)) {
                _ if from == to => true,
                (_, None) if LEAVES.contains(&to.as_str()) => !LEAVES.contains(&from.as_str()),
                (Some(from), Some(to)) => to <= from,
                _ => from == "main" || from.is_empty(),
            };
            if !allowed {
                broken.push(format!("{} names {}", shown(&file), shown(&target)));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "layer rules broken:\n{}",
        broken.join("\n")
    );
}

#[test]
fn no_two_files_name_each_other() {
    let imports = imports();
    let mut pairs = Vec::new();
    for (file, targets) in &imports {
        for target in targets {
            if file < target && imports.get(target).is_some_and(|back| back.contains(file)) {
                pairs.push(format!("{} <-> {}", shown(file), shown(target)));
            }
        }
    }
    assert!(
        pairs.is_empty(),
        "files that name each other:\n{}",
        pairs.join("\n")
    );
}

/// What a layer must never mention, as words of its code.
#[test]
fn layers_keep_out_what_is_not_theirs() {
    let rules: [(&str, &[&str]); 4] = [
        // The solvers are pure: no async, no I/O of their own, no proto, no SQL.
        (
            "solver",
            &["async", "tokio", "tonic", "sqlx", "std::fs", "std::net"],
        ),
        ("graph", &["async", "tokio", "tonic", "sqlx"]),
        // The application core knows neither proto nor the transport.
        ("app", &["tonic", "proto", "hyper", "http::"]),
        ("store", &["tonic", "proto"]),
    ];
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut broken = Vec::new();
    for file in &files {
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let words: BTreeSet<&str> = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .flat_map(|word| {
                // `tonic::Status` mentions `tonic`; `std::fs::read` mentions `std::fs`.
                let mut prefixes = vec![word];
                let mut end = 0;
                while let Some(at) = word[end..].find("::") {
                    end += at + 2;
                    prefixes.push(&word[..end - 2]);
                    prefixes.push(&word[..end]);
                }
                prefixes
            })
            .collect();
        for (layer, banned) in rules {
            if layer_of(file) != layer {
                continue;
            }
            for word in banned {
                if words.contains(word) {
                    broken.push(format!("{} mentions {word}", shown(file)));
                }
            }
        }
    }
    // SQL is written in `store` alone.
    for file in &files {
        if layer_of(file) != "store"
            && code_of(&std::fs::read_to_string(file).unwrap()).contains("sqlx::query")
        {
            broken.push(format!("{} writes SQL", shown(file)));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The checks above rest on the resolution of paths; a wrong resolution
/// would pass everything.
#[test]
fn paths_resolve_to_the_files_that_define_them() {
    let imports = imports();
    let solving = src().join("app/solving.rs");
    let named = &imports[&solving];
    for expected in [
        "app/flights.rs",
        "app/pool.rs",
        "canon/mod.rs",
        "store/mod.rs",
    ] {
        assert!(
            named.contains(&src().join(expected)),
            "{expected} in {named:?}"
        );
    }
    let play = src().join("cli/play.rs");
    assert!(imports[&play].contains(&src().join("cli/report.rs")));
    let module = vec!["cli".to_owned(), "solve".to_owned()];
    let named = named_modules(&module, "use crate::graph::{self, file::Numbering};");
    assert!(named.contains(&vec![
        "graph".to_owned(),
        "file".to_owned(),
        "Numbering".to_owned()
    ]));
    assert_eq!(
        file_of(&named[1]),
        Some(src().join("graph/file.rs")),
        "{named:?}"
    );
}
