//! Reads the fully written signatures of the entry points (`pub [unsafe] extern "C" fn NAME(...)`)
//! from the Rust sources, for the generators of build/pmpi_gen.rs and build/fortran_gen.rs.

use std::path::Path;

/// One parsed entry point.
pub struct Signature {
    /// The module path that holds it, e.g. `crate::capi::attr`.
    pub module: String,
    pub name: String,
    /// `(name, type)` of each parameter, as written.
    pub params: Vec<(String, String)>,
    /// The return type, empty for none.
    pub ret: String,
    pub is_unsafe: bool,
}

/// Splits a parameter list at its top-level commas.
fn split_top_level(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' | '>' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_owned());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_owned());
    }
    out
}

/// Every `extern "C" fn` whose name starts with `prefix` and passes `keep`, in one source file.
pub fn parse_file(
    module: &str,
    source: &str,
    prefix: &str,
    keep: &dyn Fn(&str) -> bool,
) -> Vec<Signature> {
    let marker = format!("extern \"C\" fn {prefix}");
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(pos) = rest.find(&marker) {
        let is_unsafe = rest[..pos].trim_end().ends_with("unsafe");
        let after = &rest[pos + "extern \"C\" fn ".len()..];
        let open = after.find('(').expect("parameter list");
        let name = after[..open].trim().to_owned();
        // The parameter list's closing parenthesis.
        let mut depth = 0;
        let mut close = open;
        for (i, c) in after[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let params_src = &after[open + 1..close];
        let tail = &after[close + 1..];
        let body = tail.find('{').expect("function body");
        let ret = tail[..body]
            .trim()
            .trim_start_matches("->")
            .trim()
            .to_owned();
        rest = &after[close..];
        if !keep(&name) {
            continue;
        }
        let params = split_top_level(params_src)
            .into_iter()
            .map(|p| {
                let (n, t) = p.split_once(':').expect("name: type");
                (n.trim().to_owned(), t.trim().to_owned())
            })
            .collect();
        out.push(Signature {
            module: module.to_owned(),
            name,
            params,
            ret,
            is_unsafe,
        });
    }
    out
}

/// The entry points of every file in `dir` but `mod.rs`, sorted by name.
pub fn parse_dir(
    dir: &Path,
    module_prefix: &str,
    prefix: &str,
    keep: &dyn Fn(&str) -> bool,
) -> Vec<Signature> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("source directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    let mut all = Vec::new();
    for f in files {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        if stem == "mod" {
            continue;
        }
        let source = std::fs::read_to_string(&f).expect("source file");
        all.extend(parse_file(
            &format!("{module_prefix}::{stem}"),
            &source,
            prefix,
            keep,
        ));
    }
    all.sort_by(|a, b| a.name.cmp(&b.name));
    all
}
