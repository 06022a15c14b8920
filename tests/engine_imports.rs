//! The shape of the source tree (docs/DESIGN.md "Layers"): one direction only, faces → worlds →
//! caching engine → primitives, and no import cycle between the engine's files.
//!
//! Each file of `src/` is a node; every path it names (in `use` trees and in code, after
//! comments and strings are removed; `crate::`, `$crate::`, `super::` and `self::` paths, inline
//! `mod x { ... }` blocks followed) is an edge to the deepest module file the path reaches. A
//! module's `mod.rs` counts as a file of its own, so a child importing a name its parent
//! re-exports is an edge to the parent.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A file and the module path it holds (`["caching", "store", "slot"]`; `mod.rs` is the
/// directory's module).
struct Source {
    file: PathBuf,
    module: Vec<String>,
    code: String,
}

fn sources(src: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).unwrap();
                let mut module: Vec<String> = rel
                    .with_extension("")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                    module.pop();
                }
                let text = std::fs::read_to_string(&path).unwrap();
                out.push(Source {
                    file: rel.to_path_buf(),
                    module,
                    code: strip(&text),
                });
            }
        }
    }
    out.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

/// The code without comments, string literals and char literals (each replaced by a space).
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                out.push(' ');
            }
            b'r' if (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                // A raw string r"..." / r#"..."#.
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                j += 1;
                loop {
                    if j >= b.len() {
                        break;
                    }
                    if b[j] == b'"' && b[j + 1..].iter().take(hashes).all(|&c| c == b'#') {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                i = j;
                out.push(' ');
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push(' ');
            }
            // A char literal ('x', '\n', '\''), not a lifetime ('a).
            b'\'' if b.get(i + 2) == Some(&b'\'') || b.get(i + 1) == Some(&b'\\') => {
                i += 1;
                while i < b.len() && b[i] != b'\'' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push(' ');
            }
            _ => {
                let c = text[i..].chars().next().unwrap();
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Every absolute module path (`["caching", "store", "Fast"]`) the code names, with inline
/// modules and `use` trees (`{a, b::{c}}`) followed. A path may also start with the name of a
/// child module (`use slot::Slot;` in `store/mod.rs`); `modules` says which exist.
fn paths(src: &Source, modules: &BTreeSet<Vec<String>>) -> Vec<Vec<String>> {
    let code = src.code.as_bytes();
    let mut out = Vec::new();
    // Inline modules: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < code.len() {
        let c = code[i];
        if c == b'{' {
            depth += 1;
            i += 1;
            continue;
        }
        if c == b'}' {
            if inline.last().is_some_and(|(_, d)| *d == depth) {
                inline.pop();
            }
            depth = depth.saturating_sub(1);
            i += 1;
            continue;
        }
        if !is_ident(c) || (i > 0 && (is_ident(code[i - 1]) || code[i - 1] == b':')) {
            i += 1;
            continue;
        }
        let start = i;
        while i < code.len() && is_ident(code[i]) {
            i += 1;
        }
        let word = &src.code[start..i];
        if word == "mod" {
            // `mod name {`: an inline module.
            let rest = src.code[i..].trim_start();
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let after = rest[name.len()..].trim_start();
            if !name.is_empty() && after.starts_with('{') {
                inline.push((name, depth + 1));
            }
            continue;
        }
        if !src.code[i..].starts_with("::") {
            continue;
        }
        let mut here: Vec<String> = src.module.clone();
        here.extend(inline.iter().map(|(n, _)| n.clone()));
        let child = {
            let mut c = here.clone();
            c.push(word.to_owned());
            c
        };
        let base: Vec<String> = match word {
            "crate" => Vec::new(),
            "self" => here.clone(),
            _ if word != "super" => {
                if !modules.contains(&child) {
                    continue;
                }
                child
            }
            _ => {
                // super::super::...
                let mut m = here.clone();
                m.pop();
                while src.code[i..].starts_with("::super") {
                    i += "::super".len();
                    m.pop();
                }
                m
            }
        };
        // The rest of the path, a use tree possibly.
        let (tree, end) = read_tree(&src.code, i);
        i = end;
        for tail in tree {
            let mut p = base.clone();
            p.extend(tail);
            out.push(p);
        }
    }
    out
}

/// Reads `::a::b::{c, d::{e}}` from `pos` (which is at the first `::`); returns every path it
/// names and where it ends.
fn read_tree(code: &str, mut pos: usize) -> (Vec<Vec<String>>, usize) {
    let b = code.as_bytes();
    let skip_ws = |p: &mut usize| {
        while *p < b.len() && b[*p].is_ascii_whitespace() {
            *p += 1;
        }
    };
    let mut prefix = Vec::new();
    loop {
        skip_ws(&mut pos);
        if !code[pos..].starts_with("::") {
            return (vec![prefix], pos);
        }
        pos += 2;
        skip_ws(&mut pos);
        if b.get(pos) == Some(&b'{') {
            pos += 1;
            let mut all = Vec::new();
            loop {
                skip_ws(&mut pos);
                if b.get(pos) == Some(&b'}') {
                    pos += 1;
                    break;
                }
                if b.get(pos) == Some(&b',') {
                    pos += 1;
                    continue;
                }
                if pos >= b.len() {
                    break;
                }
                // An item: ident (::tree)? (as x)?, or `*`, or a nested group.
                let start = pos;
                while pos < b.len() && (is_ident(b[pos]) || b[pos] == b'*') {
                    pos += 1;
                }
                if pos == start {
                    pos += 1;
                    continue;
                }
                let name = code[start..pos].to_owned();
                let (subs, end) = read_tree(code, pos);
                pos = end;
                for mut s in subs {
                    let mut p = prefix.clone();
                    if name != "self" {
                        p.push(name.clone());
                    }
                    p.append(&mut s);
                    all.push(p);
                }
                // Skip `as alias`.
                skip_ws(&mut pos);
                if code[pos..].starts_with("as ") {
                    pos += 3;
                    skip_ws(&mut pos);
                    while pos < b.len() && is_ident(b[pos]) {
                        pos += 1;
                    }
                }
            }
            return (all, pos);
        }
        let start = pos;
        while pos < b.len() && (is_ident(b[pos]) || b[pos] == b'*') {
            pos += 1;
        }
        if pos == start {
            return (vec![prefix], pos);
        }
        prefix.push(code[start..pos].to_owned());
    }
}

/// The import graph: file → files it names (self-edges left out).
fn graph(srcs: &[Source]) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let by_module: BTreeMap<&[String], &Path> = srcs
        .iter()
        .map(|s| (s.module.as_slice(), s.file.as_path()))
        .collect();
    let modules: BTreeSet<Vec<String>> = srcs.iter().map(|s| s.module.clone()).collect();
    let mut g = BTreeMap::new();
    for s in srcs {
        let mut to = BTreeSet::new();
        for p in paths(s, &modules) {
            // The deepest module file the path reaches.
            let target = (0..=p.len())
                .rev()
                .find_map(|n| by_module.get(&p[..n]).copied());
            if let Some(t) = target {
                if t != s.file {
                    to.insert(t.to_path_buf());
                }
            }
        }
        g.insert(s.file.clone(), to);
    }
    g
}

/// The strongly connected components with more than one file (Tarjan).
fn cycles(g: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct T<'a> {
        g: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a Path, usize>,
        low: BTreeMap<&'a Path, usize>,
        stack: Vec<&'a Path>,
        on: BTreeSet<&'a Path>,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a Path) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            let w = w.as_path();
            if !t.g.contains_key(w) {
                continue;
            }
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low[v];
                t.low.insert(v, lv.min(lw));
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low[v];
                t.low.insert(v, lv.min(iw));
            }
        }
        if t.low[v] == t.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                scc.push(w.to_path_buf());
                if w == v {
                    break;
                }
            }
            if scc.len() > 1 {
                scc.sort();
                t.out.push(scc);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_path()) {
            visit(&mut t, v);
        }
    }
    t.out
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The files under `dir` (a top-level module of src/) and the graph restricted to them.
fn subgraph(
    g: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
    dir: &str,
) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    g.iter()
        .filter(|(f, _)| f.starts_with(dir))
        .map(|(f, to)| {
            let to = to.iter().filter(|t| t.starts_with(dir)).cloned().collect();
            (f.clone(), to)
        })
        .collect()
}

// The engine's files import each other in one direction: leaf types (convert, callback,
// object) below the registry, the registry below the store, the store below the cache and its
// operations. A cycle would tie them back into one knot.
#[test]
fn the_engine_has_no_import_cycle() {
    let srcs = sources(&src_dir());
    let g = graph(&srcs);
    let engine = subgraph(&g, "caching");
    assert!(
        engine.len() > 10,
        "the engine's files were not found: {engine:?}"
    );
    let found = cycles(&engine);
    assert!(
        found.is_empty(),
        "import cycles between the engine's files:\n{}",
        found
            .iter()
            .map(|c| format!("  {c:?}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

// One direction only: the engine never names a world, a face, the faces' boundary or the test
// hooks, and the primitives name nothing above them but the error enum (a leaf: their fallible
// allocations fail with its out-of-memory variant); worlds never name a face or the boundary,
// and the boundary never names a face.
#[test]
fn layers_point_one_way() {
    let srcs = sources(&src_dir());
    let g = graph(&srcs);
    let forbidden: [(&str, &[&str]); 5] = [
        (
            "caching",
            &["world", "capi", "fortran", "testhooks.rs", "boundary.rs"],
        ),
        ("primitives", &["caching", "world", "capi", "fortran"]),
        ("world", &["capi", "fortran", "testhooks.rs", "boundary.rs"]),
        // The boundary both faces share names neither.
        ("boundary.rs", &["capi", "fortran"]),
        (
            "error.rs",
            &["caching", "world", "capi", "fortran", "primitives"],
        ),
    ];
    let mut wrong = Vec::new();
    for (from, to) in g {
        for (layer, above) in forbidden {
            if from.starts_with(layer) {
                for t in &to {
                    if above.iter().any(|a| t.starts_with(a)) {
                        wrong.push(format!("{} names {}", from.display(), t.display()));
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

// The checker itself: a cycle through a re-export of a parent, a `use` tree and `super::` is
// found; comments and strings are not paths.
#[test]
fn the_checker_finds_cycles_through_use_trees_and_super() {
    let file = |f: &str, m: &[&str], code: &str| Source {
        file: PathBuf::from(f),
        module: m.iter().map(|s| s.to_string()).collect(),
        code: strip(code),
    };
    let srcs = vec![
        file(
            "e/mod.rs",
            &["e"],
            "pub use self::a::A; // crate::e::b\nuse d::D;",
        ),
        file(
            "e/a.rs",
            &["e", "a"],
            "use crate::e::{b::{B}, c};\nconst S: &str = \"crate::e::d\";",
        ),
        file("e/b.rs", &["e", "b"], "fn f() { super::a::g() }"),
        file(
            "e/c.rs",
            &["e", "c"],
            "mod inner { use super::super::d::D; }",
        ),
        file("e/d.rs", &["e", "d"], ""),
    ];
    let g = graph(&srcs);
    let to = |f: &str| {
        g[Path::new(f)]
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(to("e/mod.rs"), vec!["e/a.rs", "e/d.rs"]);
    assert_eq!(to("e/a.rs"), vec!["e/b.rs", "e/c.rs"]);
    assert_eq!(to("e/b.rs"), vec!["e/a.rs"]);
    assert_eq!(to("e/c.rs"), vec!["e/d.rs"]);
    assert_eq!(
        cycles(&g),
        vec![vec![PathBuf::from("e/a.rs"), PathBuf::from("e/b.rs")]]
    );
}

fn assert_no_cycle(g: &BTreeMap<PathBuf, BTreeSet<PathBuf>>, what: &str) {
    let found = cycles(g);
    assert!(
        found.is_empty(),
        "import cycles between {what}:\n{}",
        found
            .iter()
            .map(|c| format!("  {c:?}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

// The single-process world (issue 16): the objects it holds are leaf types (world/objects),
// `State` holds them, `Runtime` wraps the state, and the operations (`impl Runtime` in
// world/comm.rs, world/p2p.rs, ...) sit above all three. Before the split, 13 of its files
// imported one another in one knot; sessions, files (their objects in world/objects too) and
// the tool interface (its tables and state in leaf files below its operations) follow the
// same rule, and no edge is tolerated.
#[test]
fn the_world_has_no_import_cycle() {
    let srcs = sources(&src_dir());
    let g = graph(&srcs);
    let world = subgraph(&g, "world");
    assert!(
        world.len() > 20,
        "the world's files were not found: {world:?}"
    );
    assert_no_cycle(&world, "the world's files");
}

// And none anywhere in src/: faces, boundary, worlds, engine, primitives and leaves.
#[test]
fn src_has_no_import_cycle() {
    let srcs = sources(&src_dir());
    let g = graph(&srcs);
    assert!(g.len() > 80, "the source files were not found");
    assert_no_cycle(&g, "the files of src/");
}

// The objects the world holds name none of its operations: within the world they use only the
// handles, the attribute cells and the datatype layouts, and each other.
#[test]
fn the_worlds_objects_are_leaves() {
    let srcs = sources(&src_dir());
    let g = graph(&srcs);
    let allowed = [
        "world/objects",
        "world/handle.rs",
        "world/attr_cell.rs",
        "world/datatype/layout.rs",
    ];
    let wrong: Vec<String> = g
        .iter()
        .filter(|(f, _)| f.starts_with("world/objects"))
        .flat_map(|(f, to)| {
            to.iter()
                .filter(|t| t.starts_with("world") && !allowed.iter().any(|a| t.starts_with(a)))
                .map(move |t| format!("{} names {}", f.display(), t.display()))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "the objects name operations:\n{}",
        wrong.join("\n")
    );
}
