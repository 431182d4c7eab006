//! `damas bestmove` and `damas match` (written with the search).
use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct BestMoveArgs {
    #[arg(long, default_value = "spanish")]
    pub variant: String,
    #[arg(long)]
    pub fen: Option<String>,
    #[arg(long, default_value = "medium")]
    pub level: String,
    #[arg(long = "time-ms")]
    pub time_ms: Option<u64>,
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[arg(long, default_value = "spanish")]
    pub variant: String,
    #[arg(long)]
    pub a: String,
    #[arg(long)]
    pub b: String,
    #[arg(long, default_value_t = 40)]
    pub games: u32,
    #[arg(long = "time-ms")]
    pub time_ms: Option<u64>,
}

pub fn bestmove(_args: BestMoveArgs) -> ExitCode {
    super::fail("bestmove is not built yet")
}

pub fn play_match(_args: MatchArgs) -> ExitCode {
    super::fail("match is not built yet")
}
