//! The README and docs/ name files and link to each other; a reader who
//! follows one must find it. Links are checked relative to the page, and
//! every `path/like/this.rs` in backticks must name a file or directory of
//! the repository (from the root, from `src/`, or, for a bare file name,
//! anywhere in the tree).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).expect("docs/") {
        let path = entry.expect("docs/ entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    pages.sort();
    pages
}

/// Targets of Markdown links `[text](target)` that are not web addresses,
/// without their `#fragment`.
fn link_targets(text: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split('#').next().unwrap_or_default();
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            targets.push(target);
        }
        rest = &rest[end..];
    }
    targets
}

/// Words in backticks that look like a path in the repository: they end
/// in a source file's extension, or they start with a folder of the
/// repository or of `src/` (`web/dist/app.js`, `canon/`); and they hold
/// nothing a command line would (spaces, `=`, `*`, `{`, `<`).
fn named_paths(text: &str) -> Vec<&str> {
    const EXTENSIONS: [&str; 11] = [
        ".rs", ".md", ".toml", ".proto", ".sql", ".py", ".mjs", ".ts", ".yml", ".cfg", ".json",
    ];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| {
            !word.is_empty()
                && !word.contains(|c: char| " =*{}<>:…|$".contains(c))
                && !word.starts_with('/')
                && !word.starts_with('-')
                && !EXTENSIONS.contains(word)
                && (EXTENSIONS.iter().any(|e| word.ends_with(e)) || starts_with_a_folder(word))
        })
        .collect()
}

fn starts_with_a_folder(word: &str) -> bool {
    match word.split_once('/') {
        Some((first, _)) if !first.is_empty() => {
            root().join(first).is_dir() || root().join("src").join(first).is_dir()
        }
        _ => false,
    }
}

fn files_named(dir: &Path, name: &str, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let file_name = entry.file_name();
        if file_name == "target" || file_name == "node_modules" || file_name == ".git" {
            continue;
        }
        if path.is_dir() {
            files_named(&path, name, found);
        } else if file_name.to_string_lossy() == name {
            found.push(path);
        }
    }
}

fn exists_in_repository(named: &str) -> bool {
    let named = named.trim_end_matches('/');
    if root().join(named).exists() || root().join("src").join(named).exists() {
        return true;
    }
    // A file named by its module's path (`canon/trees.rs`) or bare
    // (`trees.rs`): some file of the tree ends with it.
    let name = named.rsplit('/').next().unwrap_or(named);
    let mut found = Vec::new();
    files_named(&root(), name, &mut found);
    found.iter().any(|path| path.ends_with(named))
}

#[test]
fn every_link_in_the_docs_leads_to_a_file() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("read page");
        let dir = page.parent().expect("page dir");
        for target in link_targets(&text) {
            if !dir.join(target).exists() {
                broken.push(format!("{}: ({target})", page.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn every_file_the_docs_name_is_in_the_repository() {
    let mut missing = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("read page");
        for named in named_paths(&text) {
            // Written at run time, not kept in the repository.
            let generated = named.starts_with("target/") || named.ends_with(".db");
            if !generated && !exists_in_repository(named) {
                missing.push(format!("{}: `{named}`", page.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "named but not in the repository:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_checks_see_what_they_check() {
    assert_eq!(
        link_targets("[a](docs/api.md#x) [b](https://x.org) [c](games.md)"),
        ["docs/api.md", "games.md"]
    );
    assert_eq!(
        named_paths(
            "`src/canon/trees.rs`, `trees.rs`, `--max-edges N`, `a b.rs`, `web/`, \
             `canon/`, `Health/Watch`, `application/grpc-web+proto`, `.proto`"
        ),
        ["src/canon/trees.rs", "trees.rs", "web/", "canon/"]
    );
    assert!(exists_in_repository("canon/trees.rs"));
    assert!(exists_in_repository("trees.rs"));
    assert!(!exists_in_repository("canon/no_such_file.rs"));
    assert!(!exists_in_repository("src/service/transport.rs"));
}
