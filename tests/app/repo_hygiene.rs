//! No file of the repository names a path of a developer's machine (a home folder, a work
//! folder, root's home): such a path means nothing on anyone else's machine, and in a command
//! or a setting it makes the project work only where it was written.
//!
//! The files are git's (tracked, and new ones not ignored) when the repository is a git
//! checkout; otherwise every file under the repository but `target/`, `.git/` and
//! `node_modules/`. Binary files (with a NUL byte or not UTF-8) are not read.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The paths looked for, each built from two pieces so that this file does not name them.
fn machine_paths() -> Vec<String> {
    [
        ["/wo", "rk/"],
        ["/ro", "ot/"],
        ["/Us", "ers/"],
        ["C:\\Us", "ers\\"],
    ]
    .iter()
    .map(|p| p.concat())
    .collect()
}

/// `/home/<name>/`: a home folder (not `$HOME/`, not a bare `/home/`).
fn home_folder(line: &str) -> Option<usize> {
    let home = ["/ho", "me/"].concat();
    line.match_indices(&home).map(|(at, _)| at).find(|&at| {
        let rest = &line[at + home.len()..];
        let name = rest
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '_' | '-')))
            .unwrap_or(rest.len());
        name > 0 && rest[name..].starts_with('/')
    })
}

/// Where a line names a machine's path, and which.
fn machine_path_in(line: &str) -> Option<String> {
    if let Some(at) = home_folder(line) {
        return Some(
            line[at..]
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string(),
        );
    }
    machine_paths()
        .into_iter()
        .find(|p| line.contains(p.as_str()))
}

fn git_files() -> Option<Vec<PathBuf>> {
    let out = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(repo())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let list = String::from_utf8(out.stdout).ok()?;
    Some(
        list.split('\0')
            .filter(|f| !f.is_empty())
            .map(|f| repo().join(f))
            .collect(),
    )
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if !matches!(name.to_str(), Some("target" | ".git" | "node_modules")) {
                walk(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

fn repository_files() -> Vec<PathBuf> {
    let mut files = git_files().unwrap_or_else(|| {
        let mut files = Vec::new();
        walk(repo(), &mut files);
        files
    });
    files.sort();
    files
}

/// Each `file:line: path` of the files' text that names a machine's path.
fn machine_paths_named(files: &[PathBuf]) -> Vec<String> {
    let mut found = Vec::new();
    for path in files {
        let Ok(bytes) = std::fs::read(path) else {
            continue; // deleted, not yet committed
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        if text.contains('\0') {
            continue;
        }
        let file = path.strip_prefix(repo()).unwrap_or(path).display();
        for (i, line) in text.lines().enumerate() {
            if let Some(named) = machine_path_in(line) {
                found.push(format!("{file}:{}: {named}", i + 1));
            }
        }
    }
    found
}

#[test]
fn no_file_names_a_path_of_a_developers_machine() {
    let files = repository_files();
    assert!(
        files.iter().any(|f| f.ends_with("README.md")) && files.len() > 100,
        "the repository's files are found: {} of them",
        files.len()
    );
    let found = machine_paths_named(&files);
    assert!(
        found.is_empty(),
        "paths of a developer's machine (write them relative to the repository, or as a \
         setting like $DAMAS_DATA):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_knows_a_machine_path_from_an_ordinary_one() {
    let home = ["/ho", "me/"].concat();
    for named in [
        format!("see {home}ana/damas/data"),
        format!("DAMAS_EGDB={}egdb", ["/wo", "rk/"].concat()),
        format!("cd {}me/src", ["/Us", "ers/"].concat()),
        format!("{}db", ["/ro", "ot/"].concat()),
        format!("{}ana\\damas", ["C:\\Us", "ers\\"].concat()),
    ] {
        assert!(machine_path_in(&named).is_some(), "{named}");
    }
    for ordinary in [
        "$HOME/.local/share/damas",
        "~/.local/share/damas",
        "/var/lib/damas and /etc/damas/damas.env",
        "the tree's root/ and a homework/ folder",
        &format!("a bare {home} folder"),
    ] {
        assert_eq!(machine_path_in(ordinary), None, "{ordinary}");
    }
}
