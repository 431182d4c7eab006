//! CONTRIBUTING.md's layer rules, checked on every file under `src/` and `damas-core/src/` (the
//! crate of the lower layers, re-exported by `damas` under the same module names): a module uses only the
//! layers its table allows (`use crate::…`, `crate::…` paths, `$crate::…` in macros, and
//! `super::…` climbing out of its layer), and serenity and sled stay in their adapters.
//! Comments and string literals are not read, so a doc comment may name any layer.
//!
//! Where today's tree breaks a rule, the line is listed in [`KNOWN`] with the issue that will
//! mend it: the test fails on any other (new) break, and on a listed one that is gone, so the
//! list stays true.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers of CONTRIBUTING.md's table and the crate's modules each may use (besides itself).
/// `main.rs` may use everything and `lib.rs` only declares the modules: neither is checked.
const MAY_USE: &[(&str, &[&str])] = &[
    ("engine", &[]),
    ("level", &[]),
    ("lang", &[]),
    ("data_dir", &[]),
    ("ai", &["engine", "level", "data_dir"]),
    ("render", &["engine"]),
    ("store", &["engine", "level", "lang", "metrics", "data_dir"]),
    (
        "app",
        &[
            "engine", "level", "lang", "ai", "render", "store", "metrics", "data_dir",
        ],
    ),
    ("discord", &["app", "metrics", "web"]),
    ("web", &["app", "metrics"]),
    ("console", &["app", "metrics"]),
    (
        "cli",
        &["app", "engine", "level", "ai", "render", "metrics"],
    ),
    ("metrics", &[]),
    ("config", &[]),
];

/// External crates that belong to one layer: "serenity appears only in `src/discord/`, sled
/// only in `src/store/`" (damas-core has neither among its dependencies).
const ONLY_IN: &[(&str, &str)] = &[("serenity", "discord"), ("sled", "store")];

/// Breaks of the rules in today's tree, as (file, as `src/…` or `damas-core/src/…`, layer it uses), each with the
/// issue that removes it. Remove a line when its break is mended.
const KNOWN: &[(&str, &str, &str)] = &[
    // None today: the last ones (issue 23, item 4 — `damas store copy`, the Discord adapter's
    // store errors, the health check's timeouts, the replay guard's sightings) go through the
    // app now.
];

/// One use of another layer: where, and what.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Use {
    file: String,
    line: usize,
    layer: String,
}

/// The folders of the two crates' sources, as the repository names them.
const SOURCES: [&str; 2] = ["src", "damas-core/src"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ reads") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text with comments, string and character literals blanked out (newlines kept, so line
/// numbers hold).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !is_ident(chars[i - 1]))
        {
            // A raw string: r"…", r#"…"#, …
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                match chars.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    Some(_) => j += 1,
                }
            }
            for &k in &chars[i..j.min(chars.len())] {
                out.push(blank(k));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\u{…}'); a lifetime has no closing quote.
            let mut j = i + 1;
            if chars.get(j) == Some(&'\\') {
                j += 2;
            } else {
                j += 1;
            }
            while j < chars.len() && chars[j] != '\'' {
                j += 1;
            }
            for _ in i..=j.min(chars.len() - 1) {
                out.push(' ');
            }
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first segment of each path a use tree starting at `rest` names: `engine` for
/// `engine::Game`, `app` and `store` for `{app::App, store::Store}`.
fn first_segments(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut names = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        for (k, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    names.extend(ident_at(&group[start..k]));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    names.extend(ident_at(&group[start..k]));
                    start = k + 1;
                }
                _ => {}
            }
        }
        names
    } else {
        ident_at(rest).into_iter().collect()
    }
}

fn ident_at(s: &str) -> Option<String> {
    let name: String = s
        .trim_start()
        .chars()
        .take_while(|&c| is_ident(c))
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Where a path starting at byte `at` of `code` begins a path: not in the middle of a name or
/// of a longer path.
fn starts_path(code: &str, at: usize) -> bool {
    let before = &code[..at];
    let prev = before.chars().next_back();
    !prev.is_some_and(|c| is_ident(c) || c == '$') && !before.trim_end().ends_with("::")
}

/// The layer a file belongs to and its module path: `src/app/play.rs` is `app` in
/// `["app", "play"]`, `src/app/mod.rs` is `["app"]`, `src/metrics.rs` is `["metrics"]`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs").to_owned();
    if stem != "mod" {
        parts.push(stem);
    }
    parts
}

/// Every layer `code` (of the file whose module path is `module`) names, with its line.
fn layers_used(code: &str, module: &[String]) -> Vec<(usize, String)> {
    let layers: BTreeSet<&str> = MAY_USE.iter().map(|(l, _)| *l).collect();
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let dollar = at > 0 && code[..at].ends_with('$');
        if !dollar && !starts_path(code, at) {
            continue;
        }
        for name in first_segments(&code[at + "crate::".len()..]) {
            if layers.contains(name.as_str()) {
                found.push((line_of(at), name));
            }
        }
    }
    for (at, _) in code.match_indices("super::") {
        if !starts_path(code, at) {
            continue;
        }
        let mut rest = &code[at..];
        let mut climbs = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = r.trim_start();
        }
        // Climbing to the crate's root names a top-level module; any less stays in the layer.
        if climbs >= module.len() {
            for name in first_segments(rest) {
                if layers.contains(name.as_str()) {
                    found.push((line_of(at), name));
                }
            }
        }
    }
    found
}

/// External crates `code` names as the start of a path.
fn crates_used(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (name, _) in ONLY_IN {
        let path = format!("{name}::");
        for (at, _) in code.match_indices(&path) {
            if starts_path(code, at) {
                found.push((code[..at].matches('\n').count() + 1, name.to_string()));
            }
        }
    }
    found
}

/// Every use of a layer or crate the rules do not allow, in the files of both crates.
fn breaks_of_the_rules() -> Vec<Use> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut breaks = Vec::new();
    for source in SOURCES {
        let src = repo.join(source);
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        assert!(files.len() > 10, "{source}/ holds a crate: {files:?}");
        for path in files {
            let relative = path.strip_prefix(&src).unwrap().to_path_buf();
            if relative == Path::new("main.rs") || relative == Path::new("lib.rs") {
                continue;
            }
            breaks.extend(breaks_in(&path, &relative, source));
        }
    }
    breaks.sort();
    breaks.dedup();
    breaks
}

/// The breaks of one file, `relative` to its crate's `source` folder.
fn breaks_in(path: &Path, relative: &Path, source: &str) -> Vec<Use> {
    let file = format!("{source}/{}", relative.to_string_lossy().replace('\\', "/"));
    let mut breaks = Vec::new();
    let module = module_path(relative);
    let layer = module[0].as_str();
    let allowed = MAY_USE
        .iter()
        .find(|(l, _)| *l == layer)
        .unwrap_or_else(|| panic!("{file}: layer {layer} is not in CONTRIBUTING.md"))
        .1;
    let code = code_only(&std::fs::read_to_string(path).unwrap());
    for (line, used) in layers_used(&code, &module) {
        if used != layer && !allowed.contains(&used.as_str()) {
            breaks.push(Use {
                file: file.clone(),
                line,
                layer: used,
            });
        }
    }
    for (line, krate) in crates_used(&code) {
        let home = ONLY_IN.iter().find(|(c, _)| *c == krate).unwrap().1;
        if layer != home {
            breaks.push(Use {
                file: file.clone(),
                line,
                layer: krate,
            });
        }
    }
    breaks
}

#[test]
fn every_file_uses_only_the_layers_contributing_allows() {
    let breaks = breaks_of_the_rules();
    let new: Vec<String> = breaks
        .iter()
        .filter(|u| !KNOWN.iter().any(|(f, l, _)| *f == u.file && *l == u.layer))
        .map(|u| {
            format!(
                "{}:{} uses {}, which CONTRIBUTING.md does not allow there",
                u.file, u.line, u.layer
            )
        })
        .collect();
    assert!(new.is_empty(), "{}", new.join("\n"));
    let mended: Vec<String> = KNOWN
        .iter()
        .filter(|(f, l, _)| !breaks.iter().any(|u| u.file == *f && u.layer == *l))
        .map(|(f, l, issue)| format!("{f} no longer uses {l} ({issue}): remove it from KNOWN"))
        .collect();
    assert!(mended.is_empty(), "{}", mended.join("\n"));
}

#[test]
fn the_reader_finds_each_form_of_a_use_and_nothing_in_comments_or_strings() {
    let app_file = vec!["app".to_owned(), "play".to_owned()];
    let code = code_only(
        "use crate::engine::Game;\n\
         use crate::{ai::Level, render::{self, Board}};\n\
         fn f() { crate::store::open(); super::super::discord::x(); super::bot::y(); }\n\
         // crate::console is only named here\n\
         const S: &str = \"crate::cli\"; const R: &str = r#\"crate::cli\"#; let c = '\"';\n\
         /* crate::cli /* nested */ crate::cli */ fn g<'a>(x: &'a str) { $crate::metrics::m() }\n\
         use serenity::all::Http; let t = other::serenity::X;\n",
    );
    let mut used = layers_used(&code, &app_file);
    used.sort();
    assert_eq!(
        used,
        vec![
            (1, "engine".to_owned()),
            (2, "ai".to_owned()),
            (2, "render".to_owned()),
            (3, "discord".to_owned()),
            (3, "store".to_owned()),
            (6, "metrics".to_owned()),
        ]
    );
    assert_eq!(crates_used(&code), vec![(7, "serenity".to_owned())]);
    assert_eq!(module_path(Path::new("app/mod.rs")), vec!["app"]);
    assert_eq!(module_path(Path::new("metrics.rs")), vec!["metrics"]);
}
