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

/// The folders a path in the docs may start from: the repository's root,
/// and each crate's sources (`canon/` is the core's).
fn source_roots() -> [PathBuf; 4] {
    [
        root(),
        root().join("src"),
        root().join("crates/core/src"),
        root().join("crates/testkit/src"),
    ]
}

fn starts_with_a_folder(word: &str) -> bool {
    match word.split_once('/') {
        Some((first, _)) if !first.is_empty() => {
            source_roots().iter().any(|dir| dir.join(first).is_dir())
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
    if source_roots().iter().any(|dir| dir.join(named).exists()) {
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

/// The anchor GitHub gives a heading: lower case, spaces as `-`, and only
/// letters, digits, `-` and `_` kept (backticks, commas, dashes of other
/// kinds go).
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown page's headings (outside code blocks); a
/// repeated heading's later anchors get `-1`, `-2`, … as on GitHub.
fn anchors(page: &str) -> Vec<String> {
    let mut anchors: Vec<String> = Vec::new();
    let mut in_code = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        if in_code {
            continue;
        }
        let text = heading.trim_start_matches('#');
        if !text.starts_with(' ') {
            continue;
        }
        let base = slug(text);
        let mut anchor = base.clone();
        let mut n = 0;
        while anchors.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        anchors.push(anchor);
    }
    anchors
}

/// Every `PAGE.md#anchor` in `text`, as written (`docs/operations.md#tls`,
/// `games.md#difficulty`, `../README.md#…`), and every `](#anchor)` link
/// within the page, as `#anchor`.
fn named_anchors(text: &str) -> Vec<String> {
    let path_char = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let anchor_char = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let mut found = Vec::new();
    for (at, _) in text.match_indices(".md#") {
        let start = text[..at]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| path_char(c))
            .last()
            .map_or(at, |(i, _)| i);
        let rest = &text[at + ".md#".len()..];
        let end = rest.find(|c| !anchor_char(c)).unwrap_or(rest.len());
        found.push(format!("{}.md#{}", &text[start..at], &rest[..end]));
    }
    for (at, _) in text.match_indices("](#") {
        let rest = &text[at + "](".len()..];
        let end = rest.find(')').unwrap_or(rest.len());
        found.push(rest[..end].to_owned());
    }
    found
}

/// The files whose text may name a page's anchor: the pages, the sources
/// (Rust, proto, the page's TypeScript), the tests and benches, the
/// deployment files and CI.
fn files_naming_anchors() -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if ["target", "node_modules", ".git", "dist", "gen", "vendor"]
                .iter()
                .any(|skipped| name == *skipped)
            {
                continue;
            }
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| {
                [
                    "md", "rs", "proto", "ts", "mjs", "yml", "cfg", "toml", "sql",
                ]
                .iter()
                .any(|x| e == *x)
            }) || path.ends_with(".ci/run")
            {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(&root(), &mut found);
    found.retain(|path| !path.ends_with("tests/docs.rs"));
    found.sort();
    found
}

/// The page `named` (`docs/x.md`, `x.md`, `../README.md`) refers to from
/// `file`: relative to the file's folder, else to the repository's root,
/// else in `docs/`.
fn page_named(file: &Path, named: &str) -> Option<PathBuf> {
    let here = file.parent().unwrap_or(&root()).join(named);
    [here, root().join(named), root().join("docs").join(named)]
        .into_iter()
        .find(|path| path.is_file())
}

#[test]
fn every_anchor_the_code_and_docs_name_is_a_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in files_naming_anchors() {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for named in named_anchors(&text) {
            let (page, anchor) = named.split_once('#').expect("an anchor");
            let target = if page.is_empty() {
                Some(file.clone())
            } else {
                page_named(&file, page)
            };
            let shown = file
                .strip_prefix(root())
                .unwrap_or(&file)
                .display()
                .to_string();
            match target {
                None => broken.push(format!("{shown}: {named}: no such page")),
                Some(target) => {
                    let page_text = std::fs::read_to_string(&target).unwrap();
                    if !anchors(&page_text).iter().any(|a| a == anchor) {
                        broken.push(format!("{shown}: {named}: no such heading"));
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked > 40,
        "only {checked} anchors found: the scan misses them"
    );
    assert!(
        broken.is_empty(),
        "anchors that lead nowhere:\n{}",
        broken.join("\n")
    );
}

#[test]
fn anchors_are_made_and_found_as_github_makes_them() {
    assert_eq!(
        slug("Backups, restores and upgrades"),
        "backups-restores-and-upgrades"
    );
    assert_eq!(slug("From a browser: gRPC-Web"), "from-a-browser-grpc-web");
    assert_eq!(slug("`puzzled client` flags"), "puzzled-client-flags");
    assert_eq!(
        anchors("# A\n## B b\n```\n# not a heading\n```\n## B b\n#hashtag\n"),
        ["a", "b-b", "b-b-1"]
    );
    assert_eq!(
        named_anchors(
            "see docs/operations.md#tls, [x](games.md#difficulty) and [y](#here); (../README.md#a-b)"
        ),
        [
            "docs/operations.md#tls",
            "games.md#difficulty",
            "../README.md#a-b",
            "#here"
        ]
    );
}

/// docs/design.md's table of caches is `src/caches.rs`'s list, row for row.
#[test]
fn the_table_of_caches_is_the_list_in_the_code() {
    use puzzled::caches::{ALL, Bound};
    let design = std::fs::read_to_string(root().join("docs/design.md")).unwrap();
    let table = design
        .split_once("| name | lookups | owner | keeps | bound | made wrong by |\n|---|---|---|---|---|---|\n")
        .expect("the table of caches in docs/design.md")
        .1
        .split("\n\n")
        .next()
        .unwrap();
    let documented: Vec<&str> = table.lines().collect();
    let listed: Vec<String> = ALL
        .iter()
        .map(|cache| {
            let bound = match cache.bound {
                Bound::Flag(flag) => format!("`{flag}`"),
                Bound::Bytes(bytes) => format!("{} MiB", bytes >> 20),
            };
            format!(
                "| `{}` | `{}` | `{}` | {} | {bound} | {} |",
                cache.name, cache.lookups, cache.owner, cache.keeps, cache.invalidated_by
            )
        })
        .collect();
    assert_eq!(documented, listed, "docs/design.md's table of caches");
}

/// The README's table of `puzzled serve`'s flags is the command's own:
/// every flag with its variable, nothing else, and each default the
/// command has written in its row.
#[test]
fn the_readme_flag_table_is_the_serve_command() {
    use clap::CommandFactory as _;
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let table = readme
        .split_once("| flag | variable | default |\n|---|---|---|\n")
        .expect("the README's table of serve's flags")
        .1
        .split("\n\n")
        .next()
        .unwrap();
    let words = |cell: &str, starts: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .filter(|word| word.starts_with(starts))
            .map(|word| word.split_whitespace().next().unwrap_or(word).to_owned())
            .collect()
    };
    let mut documented = std::collections::BTreeMap::new();
    for row in table.lines() {
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").collect();
        assert_eq!(cells.len(), 3, "{row}");
        let (flags, variables) = (words(cells[0], "--"), words(cells[1], "PUZZLED_"));
        assert_eq!(
            flags.len(),
            variables.len(),
            "a variable for each flag: {row}"
        );
        for (flag, variable) in flags.into_iter().zip(variables) {
            documented.insert(flag, (variable, cells[2].replace('`', "")));
        }
    }
    let cli = puzzled::cli::args::Cli::command();
    let serve = cli.find_subcommand("serve").expect("puzzled serve");
    let mut commanded = std::collections::BTreeMap::new();
    for arg in serve.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if long == "help" {
            continue;
        }
        let variable = arg
            .get_env()
            .map(|env| env.to_string_lossy().into_owned())
            .unwrap_or_default();
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|d| d.to_string_lossy().into_owned())
            .collect();
        commanded.insert(format!("--{long}"), (variable, defaults));
    }
    let documented_flags: Vec<&String> = documented.keys().collect();
    let commanded_flags: Vec<&String> = commanded.keys().collect();
    assert_eq!(documented_flags, commanded_flags, "the README's flags");
    for (flag, (variable, defaults)) in &commanded {
        let (documented_variable, default_cell) = &documented[flag];
        assert_eq!(documented_variable, variable, "{flag}'s variable");
        for default in defaults {
            assert!(
                default_cell
                    .split_whitespace()
                    .any(|word| word.trim_matches(|c: char| ",();:".contains(c)) == default),
                "{flag}: the default {default} is not in its row: {default_cell}"
            );
        }
    }
}
