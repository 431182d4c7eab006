//! `damas render` (written with the renderer).
use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct RenderArgs {
    #[arg(long, default_value = "spanish")]
    pub variant: String,
    #[arg(long)]
    pub fen: Option<String>,
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// white or black; by default the side to move.
    #[arg(long)]
    pub perspective: Option<String>,
    #[arg(long = "last-move")]
    pub last_move: Option<String>,
    /// Draw the explanation of this move (every capture, kept and excluded).
    #[arg(long)]
    pub explain: Option<String>,
}

pub fn render(_args: RenderArgs) -> ExitCode {
    super::fail("render is not built yet")
}
