//! The code's one list of settings (`damas::config::SETTINGS`) against what an operator reads
//! and what the code reads: the README's configuration table holds exactly its rows, in its
//! order; `.env.example` has a `NAME=` line for each (with the default, when it is one
//! value); neither names a `DAMAS_*` or `DISCORD_*` variable the list lacks; every such name in
//! a string literal under `src/` or `damas-core/src/` is listed (so a new variable cannot be read undocumented); and
//! the defaults the list gives are the code's.

use damas::config::{setting, Setting, SETTINGS};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> String {
    std::fs::read_to_string(repo().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The header of the README's configuration table.
const TABLE_HEADER: &str = "| setting | default | what |";

/// The rows of the README's configuration table (the lines after its header and separator,
/// as long as they are table lines), with their line numbers.
fn table_rows(readme: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = readme.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == TABLE_HEADER)
        .unwrap_or_else(|| panic!("README.md has no configuration table ({TABLE_HEADER})"));
    lines
        .iter()
        .enumerate()
        .skip(start + 2)
        .take_while(|(_, l)| l.trim_start().starts_with('|'))
        .map(|(i, l)| (i + 1, l.trim().to_string()))
        .collect()
}

/// The table as it should read, for a failure message to show.
fn expected_table() -> String {
    let mut out = format!("{TABLE_HEADER}\n|---|---|---|\n");
    for s in SETTINGS {
        out.push_str(&s.row());
        out.push('\n');
    }
    out
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'
}

/// The `DAMAS_*` and `DISCORD_*` names in a text. A family written with a star (`DAMAS_DB_*`)
/// or a bare prefix is not a name.
fn variable_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for prefix in ["DAMAS_", "DISCORD_"] {
        for (at, _) in text.match_indices(prefix) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let name: String = text[at..]
                .chars()
                .take_while(|&c| is_name_char(c))
                .collect();
            let after = text[at + name.len()..].chars().next();
            if name.ends_with('_') || after == Some('*') {
                continue;
            }
            names.insert(name);
        }
    }
    names
}

fn unlisted(names: &BTreeSet<String>) -> Vec<&str> {
    names
        .iter()
        .filter(|n| setting(n).is_none())
        .map(String::as_str)
        .collect()
}

/// The setting a table row is about: its first cell, without backticks.
fn row_name(row: &str) -> String {
    row.trim_start_matches('|')
        .split('|')
        .next()
        .unwrap_or("")
        .trim()
        .trim_matches('`')
        .to_string()
}

#[test]
fn the_readme_table_is_the_list_of_settings() {
    let readme = read("README.md");
    let rows = table_rows(&readme);
    let mut problems = Vec::new();
    for s in SETTINGS {
        let expected = s.row();
        match rows.iter().find(|(_, row)| row_name(row) == s.name) {
            None => problems.push(format!("README.md: no row for {}", s.name)),
            Some((line, row)) if *row != expected => problems.push(format!(
                "README.md:{line}: the row of {} should be\n  {expected}\nnot\n  {row}",
                s.name
            )),
            Some(_) => {}
        }
    }
    for (line, row) in &rows {
        if setting(&row_name(row)).is_none() {
            problems.push(format!("README.md:{line}: a row the list lacks: {row}"));
        }
    }
    let table: String = rows
        .iter()
        .map(|(_, r)| r.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    for name in unlisted(&variable_names(&table)) {
        problems.push(format!(
            "README.md's table names {name}, which src/config.rs does not list"
        ));
    }
    if problems.is_empty() {
        let order: Vec<String> = rows.iter().map(|(_, r)| row_name(r)).collect();
        let listed: Vec<&str> = SETTINGS.iter().map(|s| s.name).collect();
        if order != listed {
            problems.push(format!(
                "README.md: the rows are in another order than src/config.rs's:\n  {}",
                order.join(", ")
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{}\n\nThe table, from src/config.rs:\n{}",
        problems.join("\n"),
        expected_table()
    );
}

/// The `.env.example` line setting a variable (`NAME=value`, or commented out:
/// `# NAME=value`), as its value.
fn example_value<'a>(example: &'a str, name: &str) -> Option<&'a str> {
    example.lines().find_map(|line| {
        let line = line.trim_start().trim_start_matches('#').trim_start();
        line.strip_prefix(name)?.strip_prefix('=').map(str::trim)
    })
}

#[test]
fn env_example_sets_every_setting_with_its_default() {
    let example = read(".env.example");
    let mut problems = Vec::new();
    for s in SETTINGS {
        match (example_value(&example, s.name), s.value()) {
            (None, _) => problems.push(format!("no line {}= (or # {}=)", s.name, s.name)),
            (Some(given), Some(default)) if given != default => problems.push(format!(
                "{}={given}, but its default is {default} (src/config.rs)",
                s.name
            )),
            _ => {}
        }
    }
    for name in unlisted(&variable_names(&example)) {
        problems.push(format!("names {name}, which src/config.rs does not list"));
    }
    assert!(
        problems.is_empty(),
        ".env.example:\n{}",
        problems.join("\n")
    );
}

/// The string literals of Rust source with their line numbers: `"…"` (escapes as written),
/// raw `r"…"`, `r#"…"#` and byte strings; comments, character literals and lifetimes are
/// skipped.
fn string_literals(code: &str) -> Vec<(usize, String)> {
    let c: Vec<char> = code.chars().collect();
    let ident = |i: usize| i < c.len() && (c[i].is_alphanumeric() || c[i] == '_');
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '\n' {
            line += 1;
            i += 1;
        } else if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && matches!(next, Some('"' | '#'))
            && (i == 0 || !ident(i - 1) || (c[i - 1] == 'b' && (i == 1 || !ident(i - 2))))
        {
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                i += 1;
                continue;
            }
            let (start_line, start) = (line, j + 1);
            let mut k = start;
            while k < c.len() {
                if c[k] == '"' && (0..hashes).all(|h| c.get(k + 1 + h) == Some(&'#')) {
                    break;
                }
                line += usize::from(c[k] == '\n');
                k += 1;
            }
            out.push((start_line, c[start..k.min(c.len())].iter().collect()));
            i = k + 1 + hashes;
        } else if c[i] == '"' {
            let start_line = line;
            let mut k = i + 1;
            let mut text = String::new();
            while k < c.len() && c[k] != '"' {
                if c[k] == '\\' && k + 1 < c.len() {
                    text.push(c[k]);
                    k += 1;
                }
                line += usize::from(c[k] == '\n');
                text.push(c[k]);
                k += 1;
            }
            out.push((start_line, text));
            i = k + 1;
        } else if c[i] == '\'' {
            if next == Some('\\') {
                // An escape: the character after the backslash may be a quote itself.
                let mut k = i + 3;
                while k < c.len() && c[k] != '\'' {
                    k += 1;
                }
                i = k + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1; // a lifetime
            }
        } else {
            i += 1;
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_variable_the_code_names_is_in_the_list() {
    let mut files = Vec::new();
    // The bot's code and damas-core's (which reads DAMAS_DATA and DAMAS_EGDB).
    rust_files(&repo().join("src"), &mut files);
    rust_files(&repo().join("damas-core/src"), &mut files);
    files.sort();
    let mut found = 0;
    let mut problems = Vec::new();
    for path in files {
        let code = std::fs::read_to_string(&path).unwrap();
        for (line, literal) in string_literals(&code) {
            for name in variable_names(&literal) {
                found += 1;
                if setting(&name).is_none() {
                    let file = path.strip_prefix(repo()).unwrap().display();
                    problems.push(format!("{file}:{line}: {name}"));
                }
            }
        }
    }
    assert!(
        found > 20,
        "the scan found the variables the code reads: {found}"
    );
    assert!(
        problems.is_empty(),
        "read in src/ but not in src/config.rs's SETTINGS (add it there, to the README's table and to .env.example):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_reader_finds_names_in_literals_only() {
    let code = "let a = \"DAMAS_ONE\"; // \"DAMAS_COMMENT\"\n\
                /* \"DAMAS_BLOCK\" /* nested */ */ let c = '\"'; let q = '\\''; fn f<'a>(x: &'a str) {}\n\
                let r = r#\"say \"DISCORD_TWO\" here\"#; let e = \"a \\\"DAMAS_THREE\\\" b\";\n\
                let w = \"DAMAS_DB_* and DAMAS_*, not XDAMAS_FOUR\";";
    let literals = string_literals(code);
    let names: BTreeSet<String> = literals
        .iter()
        .flat_map(|(_, l)| variable_names(l))
        .collect();
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["DAMAS_ONE", "DAMAS_THREE", "DISCORD_TWO"]
    );
    assert_eq!(literals.last().map(|(line, _)| *line), Some(4));
}

#[test]
fn the_listed_defaults_are_the_code_defaults() {
    let value = |name: &str| setting(name).and_then(Setting::value).map(str::to_string);
    // The app's settings, each given the default the list states: the same as none given.
    let asked = std::sync::Mutex::new(Vec::new());
    let stated = damas::app::Settings::from_vars(|name| {
        asked.lock().unwrap().push(name.to_string());
        value(name)
    })
    .expect("the listed defaults are valid settings");
    assert_eq!(
        stated,
        damas::app::Settings::default(),
        "the defaults src/config.rs states (left) are not the code's (right)"
    );
    let asked = asked.into_inner().unwrap();
    assert!(asked.len() > 10, "{asked:?}");
    for name in &asked {
        assert!(
            setting(name).is_some(),
            "the app reads {name}, which the list lacks"
        );
    }
    assert_eq!(
        value("DAMAS_HTTP_MAX_CONNECTIONS"),
        Some(damas::discord::webhook::DEFAULT_MAX_CONNECTIONS.to_string())
    );
    assert_eq!(
        value("RUST_LOG").as_deref(),
        Some(damas::discord::logs::DEFAULT_FILTER)
    );
    assert_eq!(
        value(damas::web::limit::SIGN_INS_ENV),
        Some(damas::web::limit::DEFAULT_SIGN_INS_PER_MINUTE.to_string())
    );
    let format = damas::discord::logs::log_format_from_vars(|_| value("DAMAS_LOG_FORMAT"));
    let unset = damas::discord::logs::log_format_from_vars(|_| None);
    assert_eq!(format.ok(), unset.ok());
}
