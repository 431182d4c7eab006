//! damas's core: the rules ([`engine`]), the bot's search and endgame tables ([`ai`]), the
//! board pictures ([`render`]), the bot's levels ([`level`]) and where the data folder is
//! ([`data_dir`]). Layers 1 and 2 of the project, without the store: nothing here speaks to
//! a network or a database. The `damas` crate re-exports every module under the same name
//! (`damas::engine`, `damas::ai`, …), so its code and its users see one library.

pub mod ai;
pub mod data_dir;
pub mod engine;
pub mod level;
pub mod render;
