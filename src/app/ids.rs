//! Component ids: `damas:<action>:<channel_id>:<ply>[:<arg>]` (at most 100 characters).
//!
//! The channel makes an id work after a restart (games are stored by channel); the ply makes
//! a button of an outdated board recognisable.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    Accept,
    Decline,
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Explain,
    Undo,
    /// A select menu of moves: the value is the move.
    Move,
    /// A select menu of pieces: the value is the square; answers with that piece's moves.
    Piece,
    /// `/forget-me`'s confirmation; `ply` carries the user's id.
    ForgetConfirm,
    ForgetCancel,
    /// The Rematch button of a game's final board; `ply` carries the game's id.
    Rematch,
    /// A select menu of a puzzle's moves (private to its solver): `ply` is the puzzle's step,
    /// the channel is unused.
    PuzzleMove,
    /// A page of a review: `ply` carries the review's key (a game's id, or a file's game's
    /// key), the argument the page's index.
    ReviewPage,
    /// A review's game as an animation: `ply` carries the review's key.
    ReviewGif,
    /// "Open the board": answers privately with a link to the game's board page.
    Board,
}

impl Action {
    fn code(self) -> &'static str {
        match self {
            Action::Accept => "accept",
            Action::Decline => "decline",
            Action::Resign => "resign",
            Action::DrawOffer => "draw",
            Action::DrawAccept => "drawyes",
            Action::DrawDecline => "drawno",
            Action::Explain => "explain",
            Action::Undo => "undo",
            Action::Move => "move",
            Action::Piece => "piece",
            Action::ForgetConfirm => "forget",
            Action::ForgetCancel => "keep",
            Action::Rematch => "rematch",
            Action::PuzzleMove => "puzzle",
            Action::ReviewPage => "review",
            Action::ReviewGif => "reviewgif",
            Action::Board => "board",
        }
    }

    fn from_code(s: &str) -> Option<Action> {
        Some(match s {
            "accept" => Action::Accept,
            "decline" => Action::Decline,
            "resign" => Action::Resign,
            "draw" => Action::DrawOffer,
            "drawyes" => Action::DrawAccept,
            "drawno" => Action::DrawDecline,
            "explain" => Action::Explain,
            "undo" => Action::Undo,
            "move" => Action::Move,
            "piece" => Action::Piece,
            "forget" => Action::ForgetConfirm,
            "keep" => Action::ForgetCancel,
            "rematch" => Action::Rematch,
            "puzzle" => Action::PuzzleMove,
            "review" => Action::ReviewPage,
            "reviewgif" => Action::ReviewGif,
            "board" => Action::Board,
            _ => return None,
        })
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ComponentId {
    pub action: Action,
    pub channel_id: u64,
    /// The ply of the board (for challenges: the challenge's creation time, to tell an old
    /// challenge from a new one).
    pub ply: u64,
    pub arg: Option<String>,
}

impl ComponentId {
    pub fn new(action: Action, channel_id: u64, ply: u64) -> ComponentId {
        ComponentId {
            action,
            channel_id,
            ply,
            arg: None,
        }
    }

    pub fn encode(&self) -> String {
        let mut s = format!(
            "damas:{}:{}:{}",
            self.action.code(),
            self.channel_id,
            self.ply
        );
        if let Some(a) = &self.arg {
            s.push(':');
            s.push_str(a);
        }
        s.truncate(100);
        s
    }

    /// Reads an id; anything not ours or malformed is `None` (answered as a stale button).
    pub fn parse(s: &str) -> Option<ComponentId> {
        let mut it = s.splitn(5, ':');
        if it.next()? != "damas" {
            return None;
        }
        let action = Action::from_code(it.next()?)?;
        let channel_id = it.next()?.parse().ok()?;
        let ply = it.next()?.parse().ok()?;
        let arg = it.next().map(str::to_string);
        Some(ComponentId {
            action,
            channel_id,
            ply,
            arg,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_reject_garbage() {
        let mut id = ComponentId::new(Action::Piece, 123456789012345678, 42);
        id.arg = Some("x".into());
        let s = id.encode();
        assert!(s.len() <= 100);
        assert_eq!(ComponentId::parse(&s), Some(id));
        assert_eq!(ComponentId::parse("damas:nope:1:2"), None);
        assert_eq!(ComponentId::parse("other:move:1:2"), None);
        assert_eq!(ComponentId::parse("damas:move:abc:2"), None);
        assert_eq!(ComponentId::parse(""), None);
    }
}
