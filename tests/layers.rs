//! The layer rules of docs/design.md that the compiler does not already
//! keep. The workspace keeps the biggest ones: the pure core
//! (`crates/core`) cannot depend on the service, and no serving code can
//! call the test kit (a dev-dependency). What is left is checked here by
//! parsing every source file with `syn` and resolving each `crate::`,
//! `super::` and `self::` path (in `use` trees, groups nested to any depth,
//! and in code) to the file that defines it:
//!
//! - within each crate, no file names a layer above its own;
//! - no files name each other in a cycle, of any length;
//! - each layer keeps out what is not its own (the solvers async, I/O and
//!   the service's crates; the application core proto and the transport;
//!   the API adapter the store; SQL outside the store);
//! - the core's dependencies, transitively, hold no tokio, tonic, sqlx or
//!   prost.
//!
//! Test modules (`#[cfg(test)]`) are left out, and only they: code after
//! one is checked like any other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A crate's layers from the bottom up, and the leaves any layer may name
/// (which name no layer themselves).
struct Layering {
    root: &'static str,
    layers: &'static [&'static str],
    leaves: &'static [&'static str],
}

const SERVICE: Layering = Layering {
    root: "src",
    layers: &["store", "app", "api", "server", "cli"],
    leaves: &["caches", "config", "metrics"],
};

const CORE: Layering = Layering {
    root: "crates/core/src",
    layers: &["graph", "solver", "puzzle", "canon", "rating"],
    leaves: &["splitmix"],
};

/// A module path: `["app", "solving"]`.
type Module = Vec<String>;

/// A crate's sources by module path, as text.
type Sources = BTreeMap<Module, String>;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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

/// The module path of a source file under `root`: `app/solving.rs` is
/// `["app", "solving"]`, `app/mod.rs` is `["app"]`, `lib.rs` is `[]`.
fn module_of(root: &Path, file: &Path) -> Module {
    let relative = file.strip_prefix(root).unwrap().with_extension("");
    let mut path: Module = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path
        .last()
        .is_some_and(|last| last == "mod" || last == "lib" || last == "main")
    {
        path.pop();
    }
    path
}

fn sources(layering: &Layering) -> Sources {
    let root = repository().join(layering.root);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files
        .into_iter()
        // The binary is a crate of its own, which names the library's
        // items through `puzzled::`.
        .filter(|file| !file.ends_with("main.rs"))
        .map(|file| {
            let text = std::fs::read_to_string(&file).unwrap();
            (module_of(&root, &file), text)
        })
        .collect()
}

/// Whether `attrs` hold `#[cfg(test)]`.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .meta
                .require_list()
                .is_ok_and(|list| list.tokens.to_string() == "test")
    })
}

/// What one file names and mentions: the module paths it names through
/// `crate::`, `super::` and `self::` (resolved against the module each
/// path stands in), and every path it writes, as text (`tokio::spawn`).
#[derive(Default)]
struct Named {
    modules: Vec<Module>,
    paths: Vec<String>,
    has_async: bool,
}

struct Walker<'a> {
    /// The module the walker stands in (a file's, then inline modules').
    module: Module,
    named: &'a mut Named,
}

impl Walker<'_> {
    /// `segments` (as written, from `crate`, `super` or `self`) as the
    /// module path it names, or `None` for a path from elsewhere.
    fn resolve(&self, segments: &[String]) -> Option<Module> {
        let mut base = match segments.first()?.as_str() {
            "crate" => Vec::new(),
            "self" => self.module.clone(),
            "super" => self.module.clone(),
            _ => return None,
        };
        let mut rest = &segments[1..];
        if segments[0] == "super" {
            base.pop();
        }
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn name(&mut self, segments: &[String]) {
        self.named.paths.push(segments.join("::"));
        if let Some(module) = self.resolve(segments) {
            self.named.modules.push(module);
        }
    }

    /// Every path a `use` tree names, groups to any depth.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(prefix, &path.tree);
                prefix.pop();
            }
            syn::UseTree::Name(name) => {
                let mut full = prefix.clone();
                if name.ident != "self" {
                    full.push(name.ident.to_string());
                }
                self.name(&full);
            }
            syn::UseTree::Rename(rename) => {
                let mut full = prefix.clone();
                if rename.ident != "self" {
                    full.push(rename.ident.to_string());
                }
                self.name(&full);
            }
            syn::UseTree::Glob(_) => {
                let full = prefix.clone();
                self.name(&full);
            }
            syn::UseTree::Group(group) => {
                for item in &group.items {
                    self.use_tree(prefix, item);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Walker<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test_only(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        // `mod x;` is a file of its own, walked as such.
        if item.content.is_some() {
            self.module.push(item.ident.to_string());
            syn::visit::visit_item_mod(self, item);
            self.module.pop();
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.name(&segments);
        syn::visit::visit_path(self, path);
    }

    fn visit_signature(&mut self, signature: &'ast syn::Signature) {
        self.named.has_async |= signature.asyncness.is_some();
        syn::visit::visit_signature(self, signature);
    }

    fn visit_expr_async(&mut self, expr: &'ast syn::ExprAsync) {
        self.named.has_async = true;
        syn::visit::visit_expr_async(self, expr);
    }
}

/// What the file of `module` (with source `text`) names.
fn named_by(module: &Module, text: &str) -> Named {
    let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{module:?}: {e}"));
    let mut named = Named::default();
    // A file's `super::` is its parent module; `mod.rs` and `lib.rs` stand
    // for their folder, as their module path already says.
    let mut walker = Walker {
        module: module.clone(),
        named: &mut named,
    };
    walker.visit_file(&file);
    named
}

/// The module with a file of its own that defines the longest prefix of
/// `module`, if any.
fn file_module(sources: &Sources, module: &Module) -> Option<Module> {
    (0..=module.len())
        .rev()
        .map(|len| module[..len].to_vec())
        .find(|prefix| sources.contains_key(prefix))
}

/// Each file and the other files it names.
fn imports(sources: &Sources) -> BTreeMap<Module, BTreeSet<Module>> {
    sources
        .iter()
        .map(|(module, text)| {
            let targets = named_by(module, text)
                .modules
                .iter()
                .filter_map(|named| file_module(sources, named))
                .filter(|target| target != module && !target.is_empty())
                .collect();
            (module.clone(), targets)
        })
        .collect()
}

fn shown(module: &Module) -> String {
    if module.is_empty() {
        "(crate root)".into()
    } else {
        module.join("::")
    }
}

/// Each file that names a layer above its own, or a leaf that names a layer.
fn upward(layering: &Layering, sources: &Sources) -> Vec<String> {
    let rank = |module: &Module| {
        module
            .first()
            .and_then(|top| layering.layers.iter().position(|l| l == top))
    };
    let is_leaf = |module: &Module| {
        module
            .first()
            .is_some_and(|top| layering.leaves.contains(&top.as_str()))
    };
    let mut broken = Vec::new();
    for (file, targets) in imports(sources) {
        if file.is_empty() {
            continue;
        }
        for target in targets {
            let same_top = file.first() == target.first();
            let allowed = match (rank(&file), rank(&target)) {
                _ if same_top => true,
                _ if is_leaf(&target) => !is_leaf(&file),
                (Some(from), Some(to)) => to <= from,
                _ => false,
            };
            if !allowed {
                broken.push(format!("{} names {}", shown(&file), shown(&target)));
            }
        }
    }
    broken
}

/// Every cycle of files naming each other (each strongly connected set of
/// more than one file, by Tarjan's algorithm).
fn cycles(sources: &Sources) -> Vec<Vec<Module>> {
    let imports = imports(sources);
    let modules: Vec<&Module> = imports.keys().collect();
    let index_of: BTreeMap<&Module, usize> =
        modules.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let edges: Vec<Vec<usize>> = modules
        .iter()
        .map(|m| {
            imports[*m]
                .iter()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    struct Tarjan<'a> {
        edges: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in &self.edges[v] {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(index) if self.on_stack[w] => self.low[v] = self.low[v].min(index),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let n = modules.len();
    let mut tarjan = Tarjan {
        edges: &edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if tarjan.index[v].is_none() {
            tarjan.visit(v);
        }
    }
    tarjan
        .found
        .into_iter()
        .map(|component| {
            let mut component: Vec<Module> =
                component.into_iter().map(|i| modules[i].clone()).collect();
            component.sort();
            component
        })
        .collect()
}

/// What a layer must never write: paths that start with one of these (as
/// written: `tokio::spawn`, `crate::api::proto::Puzzle`, `std::fs::read`),
/// and, for `no_async`, no async code.
struct Keep {
    layer: &'static str,
    paths: &'static [&'static str],
    no_async: bool,
}

const SERVICE_KEEPS: [Keep; 3] = [
    // The application core knows neither proto nor the transport.
    Keep {
        layer: "app",
        paths: &["tonic", "crate::api", "hyper", "http", "prost"],
        no_async: false,
    },
    // The API adapter calls the application core, never the store.
    Keep {
        layer: "api",
        paths: &["crate::store"],
        no_async: false,
    },
    Keep {
        layer: "store",
        paths: &["tonic", "crate::api", "prost"],
        no_async: false,
    },
];

const CORE_KEEPS: [Keep; 2] = [
    // The solvers are pure: no async, no I/O of their own.
    Keep {
        layer: "solver",
        paths: &["std::fs", "std::net", "std::process"],
        no_async: true,
    },
    Keep {
        layer: "graph",
        paths: &["std::net", "std::process"],
        no_async: true,
    },
];

fn starts_with_path(path: &str, prefix: &str) -> bool {
    path == prefix || path.starts_with(&format!("{prefix}::"))
}

/// Each place a layer writes what it must keep out, and SQL outside the
/// store.
fn kept_out(keeps: &[Keep], sql_layer: Option<&str>, sources: &Sources) -> Vec<String> {
    let mut broken = Vec::new();
    for (module, text) in sources {
        let named = named_by(module, text);
        let top = module.first().map(String::as_str).unwrap_or_default();
        for keep in keeps.iter().filter(|keep| keep.layer == top) {
            for path in &named.paths {
                if let Some(banned) = keep.paths.iter().find(|p| starts_with_path(path, p)) {
                    broken.push(format!("{} writes {path} ({banned})", shown(module)));
                }
            }
            if keep.no_async && named.has_async {
                broken.push(format!("{} has async code", shown(module)));
            }
        }
        if sql_layer.is_some_and(|layer| layer != top)
            && named
                .paths
                .iter()
                .any(|p| starts_with_path(p, "sqlx::query"))
        {
            broken.push(format!("{} writes SQL", shown(module)));
        }
    }
    broken.sort();
    broken.dedup();
    broken
}

#[test]
fn no_file_names_a_layer_above_its_own() {
    let mut broken = upward(&SERVICE, &sources(&SERVICE));
    broken.extend(
        upward(&CORE, &sources(&CORE))
            .into_iter()
            .map(|b| format!("core: {b}")),
    );
    assert!(
        broken.is_empty(),
        "layer rules broken:\n{}",
        broken.join("\n")
    );
}

#[test]
fn no_files_name_each_other_in_a_cycle() {
    let mut found = Vec::new();
    for layering in [SERVICE, CORE] {
        for cycle in cycles(&sources(&layering)) {
            let names: Vec<String> = cycle.iter().map(shown).collect();
            found.push(format!("{}: {}", layering.root, names.join(" <-> ")));
        }
    }
    assert!(
        found.is_empty(),
        "files that name each other:\n{}",
        found.join("\n")
    );
}

#[test]
fn layers_keep_out_what_is_not_theirs() {
    let mut broken = kept_out(&SERVICE_KEEPS, Some("store"), &sources(&SERVICE));
    broken.extend(kept_out(&CORE_KEEPS, Some(""), &sources(&CORE)));
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The core's dependencies, all the way down, as cargo resolves them.
#[test]
fn the_core_depends_on_no_runtime_network_or_database_crate() {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--package",
            "puzzled-core",
            "--edges",
            "normal,build",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .current_dir(repository())
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).unwrap();
    let crates: BTreeSet<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(
        crates.contains("nauty-Traces-sys"),
        "the tree was read: {crates:?}"
    );
    for banned in [
        "tokio",
        "tonic",
        "sqlx",
        "prost",
        "hyper",
        "puzzled",
        "puzzled-testkit",
    ] {
        assert!(!crates.contains(banned), "puzzled-core depends on {banned}");
    }
}

// ---- the checks themselves, on crafted crates ----------------------------

fn crafted(files: &[(&str, &str)]) -> Sources {
    files
        .iter()
        .map(|(module, text)| {
            let module: Module = module
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            (module, (*text).to_owned())
        })
        .collect()
}

const LAYERED: Layering = Layering {
    root: "",
    layers: &["store", "app", "api", "server"],
    leaves: &["config"],
};

#[test]
fn grouped_and_nested_uses_are_followed() {
    let sources = crafted(&[
        ("store", "use crate::{api, server};"),
        ("app", "use crate::{config, store::{self, x::{Y, Z}}};"),
        ("api", ""),
        ("server", ""),
        ("config", ""),
        ("store::x", ""),
    ]);
    let broken = upward(&LAYERED, &sources);
    assert_eq!(broken, ["store names api", "store names server"]);
    let app = &imports(&sources)[&vec!["app".to_owned()]];
    assert!(
        app.contains(&vec!["store".to_owned(), "x".to_owned()]),
        "{app:?}"
    );
}

#[test]
fn code_after_a_test_module_is_read_and_the_test_module_is_not() {
    let sources = crafted(&[
        (
            "store",
            "#[cfg(test)]\nmod tests { use crate::api; }\n\nfn later() { crate::server::run(); }",
        ),
        ("api", ""),
        ("server", ""),
    ]);
    assert_eq!(upward(&LAYERED, &sources), ["store names server"]);
}

#[test]
fn strings_and_comments_name_nothing() {
    let sources = crafted(&[
        (
            "store",
            "// crate::api::x\nconst S: &str = \"\\\"crate::api\\\" \";\nfn f() { let _ = r#\"crate::server\"#; }",
        ),
        ("api", ""),
        ("server", ""),
    ]);
    assert!(upward(&LAYERED, &sources).is_empty());
}

#[test]
fn super_self_and_inline_modules_resolve_where_they_stand() {
    let sources = crafted(&[
        ("app", "mod inner { use super::super::api::Thing; }"),
        ("app::solving", "use super::pool; fn f() { self::g(); }"),
        ("app::pool", ""),
        ("api", ""),
    ]);
    let imports = imports(&sources);
    assert!(imports[&vec!["app".to_owned()]].contains(&vec!["api".to_owned()]));
    assert!(
        imports[&vec!["app".to_owned(), "solving".to_owned()]]
            .contains(&vec!["app".to_owned(), "pool".to_owned()])
    );
}

#[test]
fn cycles_of_any_length_are_found() {
    let sources = crafted(&[
        ("app::a", "use super::b;"),
        ("app::b", "use super::c;"),
        ("app::c", "use super::a;"),
        ("app::d", "use super::a;"),
    ]);
    let found = cycles(&sources);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].len(), 3);
}

#[test]
fn banned_paths_and_async_are_found_wherever_they_are_written() {
    let sources = crafted(&[
        ("app", "fn f() -> tonic::Status { todo!() }"),
        (
            "api::handlers",
            "fn g() { let _ = crate::store::Store::open; }",
        ),
        ("cli", "fn h() { sqlx::query(\"SELECT 1\"); }"),
    ]);
    let broken = kept_out(&SERVICE_KEEPS, Some("store"), &sources);
    assert_eq!(
        broken,
        [
            "api::handlers writes crate::store::Store::open (crate::store)",
            "app writes tonic::Status (tonic)",
            "cli writes SQL",
        ]
    );
    let core = crafted(&[(
        "solver::x",
        "async fn f() {} fn g() { std::fs::read(\"x\"); }",
    )]);
    let broken = kept_out(&CORE_KEEPS, Some(""), &core);
    assert_eq!(
        broken,
        [
            "solver::x has async code",
            "solver::x writes std::fs::read (std::fs)"
        ]
    );
}
