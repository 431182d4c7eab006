//! Where damas keeps what it writes: one data folder (`DAMAS_DATA`) holding the sled database
//! (`damas.db`) and the endgame tables (`egdb/`), so that the binary behaves the same from
//! whatever folder it is started in. `DAMAS_DB` and `DAMAS_EGDB` still name either one
//! elsewhere.
//!
//! The data folder, first that applies: `$DAMAS_DATA`; `$XDG_DATA_HOME/damas` (an absolute
//! path, as the XDG base directory specification requires); `$HOME/.local/share/damas`;
//! `./data` when there is no home at all. This module uses nothing of ours, so every layer
//! may ask it (like `level` and `lang`). Nothing here creates a folder: each user creates
//! what it writes into when it first writes (sled its database, the table builder its
//! folder), so a command that only reads leaves no empty folders behind.

use std::ffi::OsString;
use std::path::PathBuf;

/// The environment variable naming the data folder.
pub const DATA_ENV: &str = "DAMAS_DATA";
/// The environment variable naming the database: a folder (sled), or a PostgreSQL URL.
pub const DB_ENV: &str = "DAMAS_DB";
/// The environment variable naming the endgame tables' folder.
pub const EGDB_ENV: &str = "DAMAS_EGDB";
/// The database's name inside the data folder.
pub const DB_NAME: &str = "damas.db";
/// The endgame tables' folder's name inside the data folder.
pub const EGDB_NAME: &str = "egdb";
/// The data folder's name inside `$XDG_DATA_HOME` or `~/.local/share`.
const APP_NAME: &str = "damas";
/// The data folder where there is no home (a service without one, a bare container).
const FALLBACK_DIR: &str = "./data";

/// The data folder, from the process's environment.
pub fn data_dir() -> PathBuf {
    data_dir_from(env)
}

/// The database (`$DAMAS_DB`, else `damas.db` in the data folder), from the process's
/// environment.
pub fn db_path() -> PathBuf {
    db_path_from(env)
}

/// The endgame tables' folder (`$DAMAS_EGDB`, else `egdb` in the data folder), from the
/// process's environment.
pub fn egdb_dir() -> PathBuf {
    egdb_dir_from(env)
}

fn env(name: &str) -> Option<OsString> {
    std::env::var_os(name)
}

/// A variable's value, unless it is unset or blank.
fn set(var: &impl Fn(&str) -> Option<OsString>, name: &str) -> Option<OsString> {
    var(name).filter(|v| !v.to_string_lossy().trim().is_empty())
}

/// [`data_dir`] from any source of variables (tests).
pub fn data_dir_from(var: impl Fn(&str) -> Option<OsString>) -> PathBuf {
    if let Some(dir) = set(&var, DATA_ENV) {
        return PathBuf::from(dir);
    }
    // The specification: a relative XDG_DATA_HOME is invalid and must be ignored.
    if let Some(xdg) = set(&var, "XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
    {
        return xdg.join(APP_NAME);
    }
    if let Some(home) = set(&var, "HOME") {
        return PathBuf::from(home)
            .join(".local")
            .join("share")
            .join(APP_NAME);
    }
    PathBuf::from(FALLBACK_DIR)
}

/// [`db_path`] from any source of variables (tests).
pub fn db_path_from(var: impl Fn(&str) -> Option<OsString>) -> PathBuf {
    match set(&var, DB_ENV) {
        // A URL keeps its spaces trimmed, as it is read elsewhere.
        Some(db) => PathBuf::from(db.to_string_lossy().trim()),
        None => data_dir_from(var).join(DB_NAME),
    }
}

/// [`egdb_dir`] from any source of variables (tests).
pub fn egdb_dir_from(var: impl Fn(&str) -> Option<OsString>) -> PathBuf {
    match set(&var, EGDB_ENV) {
        Some(dir) => PathBuf::from(dir),
        None => data_dir_from(var).join(EGDB_NAME),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn the_data_folder_is_damas_data_then_xdg_then_home_then_the_working_folder() {
        let all = vars(&[
            ("DAMAS_DATA", "/srv/damas"),
            ("XDG_DATA_HOME", "/xdg"),
            ("HOME", "/var/lib/u"),
        ]);
        assert_eq!(data_dir_from(all), PathBuf::from("/srv/damas"));
        let xdg = vars(&[("XDG_DATA_HOME", "/xdg"), ("HOME", "/var/lib/u")]);
        assert_eq!(data_dir_from(xdg), PathBuf::from("/xdg/damas"));
        let home = vars(&[("HOME", "/var/lib/u")]);
        assert_eq!(
            data_dir_from(home),
            PathBuf::from("/var/lib/u/.local/share/damas")
        );
        assert_eq!(data_dir_from(vars(&[])), PathBuf::from("./data"));
        // Blank is unset; a relative XDG_DATA_HOME is ignored, as the specification says.
        let blank = vars(&[
            ("DAMAS_DATA", "  "),
            ("XDG_DATA_HOME", "relative"),
            ("HOME", "/var/lib/u"),
        ]);
        assert_eq!(
            data_dir_from(blank),
            PathBuf::from("/var/lib/u/.local/share/damas")
        );
    }

    #[test]
    fn the_database_and_the_tables_live_in_the_data_folder_unless_named() {
        let data = vars(&[("DAMAS_DATA", "/srv/damas")]);
        assert_eq!(db_path_from(&data), PathBuf::from("/srv/damas/damas.db"));
        assert_eq!(egdb_dir_from(&data), PathBuf::from("/srv/damas/egdb"));
        let named = vars(&[
            ("DAMAS_DATA", "/srv/damas"),
            ("DAMAS_DB", " postgres://u@h/db "),
            ("DAMAS_EGDB", "/tables"),
        ]);
        assert_eq!(db_path_from(&named), PathBuf::from("postgres://u@h/db"));
        assert_eq!(egdb_dir_from(&named), PathBuf::from("/tables"));
    }
}
