# English strings. Every id here must also be in es.ftl (a test checks).

variant-spanish = Spanish draughts
variant-portuguese = Portuguese draughts
variant-english = English draughts (checkers)
color-white = White
color-black = Black

err-empty = No move given. Write it like 11-15, or 22x15 for a capture.
err-not-a-move = “{ $text }” is not a move. Write the squares like 11-15, or 22x15 for a capture.
err-square-range = There is no square { $n }: squares are numbered 1 to 32.
err-one-square = A move needs two squares, where the piece is and where it goes (for example { $sq }-…).
err-no-piece = There is no piece on square { $sq }.
err-opponent-piece = The piece on square { $sq } is your opponent's.
err-ambiguous = Those squares fit more than one capture: { $moves }. Write every landing square to choose.
err-man-forward = A man moves only forward.
err-man-captures-forward = A man captures only forward, never backward.
err-occupied = Square { $sq } is occupied.
err-unreachable = The piece on square { $from } cannot reach square { $to } in one move.
err-short-king = In English draughts a king moves only one square at a time.
err-capture-mandatory = Capturing is mandatory. { $count ->
    [one] The only allowed capture is { $moves }.
   *[other] Allowed captures: { $moves }.
}
err-quantity = Law of quantity: you must take the most pieces; { $best ->
    [one] one can
   *[other] { WORDS($best) } can
} be taken, and that move takes { $yours ->
    [0] none
    [one] only one
   *[other] only { WORDS($yours) }
}. { $count ->
    [one] The only allowed capture is { $moves }.
   *[other] Allowed captures: { $moves }.
}
err-quality = Law of quality: among captures of the same number of pieces, you must take the most kings; { $best ->
    [one] one king can
   *[other] { WORDS($best) } kings can
} be taken, and that move takes { $yours ->
    [0] none
    [one] only one
   *[other] only { WORDS($yours) }
}. { $count ->
    [one] The only allowed capture is { $moves }.
   *[other] Allowed captures: { $moves }.
}
err-capture-incomplete = A capture cannot stop halfway: the piece must go on capturing. Complete it: { $moves }.
err-no-such-capture = There is no capture from { $from } to { $to }.

result-ongoing = The game goes on.
result-win-no-pieces = { $winner } wins: the opponent has no pieces left.
result-win-no-moves = { $winner } wins: the opponent cannot move.
result-win-resignation = { $winner } wins by resignation.
result-win-abandoned = { $winner } wins: the opponent abandoned the game.
result-win-time = { $winner } wins: the opponent lost on time.
result-draw-agreement = Draw by agreement.
result-draw-repetition = Draw: the same position for the third time.
result-draw-no-progress = Draw: the no-progress move limit was reached.
result-draw-three-kings = Draw: three kings did not beat a lone king in time.

# Explanations speak in the present of the position on the board ($tense = present), in the
# past of a move already played ($tense = past).
law-no-capture = { $tense ->
    [present] No capture is available, so none is required.
   *[past] No capture was available, so none was required.
}
law-mandatory = { $tense ->
    [present] Capturing is mandatory: a capture must be played.
   *[past] Capturing is mandatory: a capture had to be played.
}
law-quantity = { $tense ->
    [present] Law of quantity: only the captures taking the most pieces ({ $best }) are allowed.
   *[past] Law of quantity: only the captures taking the most pieces ({ $best }) were allowed.
}
law-quality = Law of quality: among the captures taking { $best ->
    [one] one piece
   *[other] { WORDS($best) } pieces
}, only those taking the most kings ({ $kings }) { $tense ->
    [present] are
   *[past] were
} allowed.
law-free-choice = { $tense ->
    [present] Capturing is mandatory, but in English draughts any capture may be chosen.
   *[past] Capturing was mandatory, but in English draughts any capture could be chosen.
}
explain-captures-header = { $tense ->
    [present] { $count ->
        [one] One capture is available:
        [2] Two captures are available:
        [3] Three captures are available:
        [4] Four captures are available:
        [5] Five captures are available:
       *[other] There are { $count } captures available:
    }
   *[past] { $count ->
        [one] One capture was available:
        [2] Two captures were available:
        [3] Three captures were available:
        [4] Four captures were available:
        [5] Five captures were available:
       *[other] There were { $count } captures available:
    }
}
explain-capture-line = • { $move } takes { $pieces ->
    [one] one piece
   *[other] { WORDS($pieces) } pieces
}{ $kings ->
    [0] {""}
    [one] {" "}(one king)
   *[other] {" "}({ WORDS($kings) } kings)
} — { $status }
explain-allowed = allowed
explain-excluded-quantity = excluded by the law of quantity
explain-excluded-quality = excluded by the law of quality
verdict-legal = { $move } is legal.
verdict-illegal = { $move } is not legal. { $reason }
# After “Capturing is mandatory…” and the list of captures: why this move is refused, without saying it again.
verdict-not-a-capture = { $move } is not legal: it takes nothing, and a capture must be played.

level-easy = easy
level-medium = medium
level-hard = hard
level-expert = expert
bot-name = Bot · { $level }
deleted-player = deleted player
err-storage = Something went wrong saving the game; nothing was changed. Please try again.
players-line = ⚪ { $white } vs ⚫ { $black }
status-turn = Move { $number } · { $color } to play ({ $name })
status-no-progress = { $left ->
    [one] one move left before the no-progress draw
   *[other] { $left } moves left before the no-progress draw
}
status-three-kings = three kings against one: { $left ->
    [one] one move
   *[other] { $left } moves
} left to win
status-draw-offered = { $name } offers a draw
button-draw-accept = Accept draw
button-draw-decline = Decline draw
button-draw = Offer draw
button-explain = Explain
button-undo = Undo
button-resign = Resign
menu-move = Choose your move
menu-piece = Choose which piece to move
menu-piece-moves = { $count ->
    [one] one move
   *[other] { $count } moves
}
menu-captures = takes { $pieces }{ $kings ->
    [0] {""}
    [one] {" "}(1 king)
   *[other] {" "}({ $kings } kings)
}
err-no-game = There is no game in this channel. Start one with /challenge or /play.
err-not-your-game = You are not playing in this game.
err-position-changed = The position changed before your move arrived; nothing was played. Look at the new board and try again.
err-game-over = This game is over.
err-not-your-turn = It is not your turn.
legal-moves = Legal moves: { $moves }
played = { $name } played { $move }.
bot-played = { $name } played { $move }.
bot-thinking = { $ahead ->
    [0] The bot is thinking…
    [one] The bot is thinking… (one game ahead in the queue)
   *[other] The bot is thinking… ({ $ahead } games ahead in the queue)
}
err-bot-failed = The bot could not move; the game is kept as it was.
resigned = { $name } resigned.
bot-accepts-draw = The bot accepts the draw.
bot-declines-draw = The bot declines the draw and plays on.
err-draw-already-offered = You have already offered a draw; wait for the answer.
draw-accepted = { $name } accepted the draw.
draw-offered = { $name } offers a draw. Answer with the buttons, or with /draw answer:accept or /draw answer:decline.
draw-declined = { $name } declined the draw.
err-no-draw-offer = There is no draw offer to answer.
err-undo-people = Undo is only for games against the bot.
err-bot-thinking = Wait for the bot's move first.
err-nothing-to-undo = There is no move of yours to take back.
undone = Your last move and the bot's answer were taken back. This game is no longer ranked.
explain-last = Last move: { $move }
err-no-move-yet = No move has been played yet. Ask about a move with /explain move:11-15.
explain-title = Why?
err-stale = That board is outdated: use the latest board in the channel (or /board).
err-stale-over = That game is over.
choose-destination = Choose where it goes:
forced-capture = It was the only capture allowed.
forced-capture-quantity = It was the only capture allowed: no other takes as many pieces ({ $best }).
forced-capture-quality = It was the only capture allowed: among the captures taking { $best ->
    [one] one piece
   *[other] { WORDS($best) } pieces
}, no other takes as many kings ({ $kings }).
err-challenge-self = You cannot challenge yourself.
err-challenge-bot = You cannot challenge a bot account. To play me, use /play.
err-challenge-open = There is already an open challenge in this channel.
challenge-title = A challenge!
challenge-posted = { $challenger } challenges { $opponent } to a game of { $variant }. { $opponent }, do you accept? (It expires in { $minutes ->
    [one] one minute
   *[other] { $minutes } minutes
}.)
button-accept = Accept
button-decline = Decline
err-challenge-gone = That challenge is no longer open.
challenge-declined = { $name } declined the challenge.
challenge-withdrawn = { $name } withdrew the challenge.
err-not-your-challenge = This challenge is not for you.
err-challenge-expired = That challenge has expired.
challenge-expired-notice = { $challenger }'s challenge to { $opponent } expired without an answer.
lost-on-time = { $name } ran out of time.
reminder = Your move: { $count } { $unit ->
    [days] { $count ->
        [one] day
       *[other] days
    }
    [hours] { $count ->
        [one] hour
       *[other] hours
    }
    [minutes] { $count ->
        [one] minute
       *[other] minutes
    }
   *[seconds] { $count ->
        [one] second
       *[other] seconds
    }
} left before you lose on time.
err-channel-busy = There is already a game in this channel. Finish it first, or play in another channel or thread.
game-started = The game begins!
help-title = How to play
help-footer = Squares are numbered 1 to 32, as in the picture. Under the board: buttons and a menu of your moves.
rules-spanish = Each player has 12 pieces, on the 32 squares of one colour of an 8×8 board; { $first } moves first. Spanish draughts is traditionally played on the light squares of a normally placed board; the bot's picture uses the dark ones with the same geometry, and the long diagonal, 1-5-10-14-19-23-28-32, joins the two players' right-hand corners.
    • A man moves one square diagonally forward. It captures forward only: it jumps an adjacent enemy piece to the empty square right behind it.
    • A man that ends its move on the far row (the king row) is crowned: it becomes a king. Kings fly: a king moves any number of free squares along a diagonal, forward or backward, and captures at a distance, landing on any free square behind the piece it takes.
    • Capturing is mandatory. Law of quantity: take the most pieces. Law of quality: among captures of the same number of pieces, take the most kings. Among the captures left, choose freely. There is no huffing: a missed capture is never punished by removing a piece; a non-capturing move is not allowed while a capture exists.
    • A piece goes on capturing while it can; the captured pieces are removed when the move ends and cannot be jumped twice. A man crowned during a capture stops there.
    • You lose when, on your turn, you have no piece or no legal move. Draws: by agreement; the same position a third time with the same player to move; { $moves } moves each in which only kings moved and nothing was captured; three kings against a lone king, with one of the three on the long diagonal, that do not win within { $three_kings } moves.
rules-portuguese = As in Spanish draughts: flying kings, men capture forward only, the laws of quantity and quality, no huffing. { $first } moves first.
    • Draws: by agreement; the same position a third time with the same player to move; { $moves } moves each without a capture. There is no three-kings limit.
rules-english = An 8×8 board, 12 pieces each on the dark squares; { $first } moves first.
    • A man moves one square diagonally forward. A capture jumps an adjacent enemy piece to the empty square right behind it: men forward only, kings forward and back.
    • A man that ends its move on the far row (the king row) is crowned: it becomes a king. Kings also move only one square at a time, in all four directions.
    • Capturing is mandatory, but you may choose any capture, even a shorter one; once started it must be completed. There is no huffing. A man crowned during a capture stops there.
    • You lose when, on your turn, you have no piece or no legal move. Draws: by agreement; the same position a third time with the same player to move; { $moves } moves each without a capture or a man move.
stats-none = { $name } has not played yet.
stats-title = { $name }'s record:
stats-people = { $variant } vs other players: { $wins ->
    [one] 1 win
   *[other] { $wins } wins
} · { $losses ->
    [one] 1 loss
   *[other] { $losses } losses
} · { $draws ->
    [one] 1 draw
   *[other] { $draws } draws
} — rating { $rating }
stats-bot = { $variant } vs the bot ({ $level }): { $wins ->
    [one] 1 win
   *[other] { $wins } wins
} · { $losses ->
    [one] 1 loss
   *[other] { $losses } losses
} · { $draws ->
    [one] 1 draw
   *[other] { $draws } draws
} — best score { $best }
err-guild-only = Leaderboards are per server; use this command in a server.
leaderboard-title = Leaderboard — { $variant } (rating)
leaderboard-bot-title = Leaderboard — { $variant } against the bot ({ $level })
leaderboard-empty = No ranked games yet.
leaderboard-line = { $rank }. { $name } — { $score } ({ $games ->
    [one] 1 game
   *[other] { $games } games
})
pdn-attached = The game in PDN:
err-cancel-permission = Only members who can manage messages may cancel a game.
cancelled = { $name } cancelled the game in this channel; it counts for neither player.

# Slash commands: cmd-<name> is the name (lower case, no spaces), cmd-<name>-desc its
# description (at most 100 characters). Options: opt-<name>; choices: choice-<option>-<value>.
cmd-challenge = challenge
cmd-challenge-desc = Challenge someone to a game of draughts
cmd-play = play
cmd-play-desc = Play against the bot (easy, medium, hard or expert)
cmd-move = move
cmd-move-desc = Make a move, for example 11-15 or 22x15 (or use the menu under the board)
cmd-board = board
cmd-board-desc = Show the board again
cmd-resign = resign
cmd-resign-desc = Resign the game
cmd-draw = draw
cmd-draw-desc = Offer a draw, or accept or decline the one offered
cmd-undo = undo
cmd-undo-desc = Take back your last move (against the bot; the game becomes unranked)
cmd-explain = explain
cmd-explain-desc = Why the last move (or another) is or is not allowed
cmd-rules = rules
cmd-rules-desc = The rules of a variant
cmd-stats = stats
cmd-stats-desc = Someone's record
cmd-leaderboard = leaderboard
cmd-leaderboard-desc = This server's best players
cmd-pdn = pdn
cmd-pdn-desc = The game as a PDN file
cmd-help = help
cmd-help-desc = How to play
cmd-cancel = cancel
cmd-cancel-desc = Moderators end a stuck game in this channel (Manage Messages)
opt-opponent = opponent
opt-opponent-desc = Who you challenge
opt-variant = variant
opt-variant-desc = Variant: Spanish (default), Portuguese or English
opt-colour = colour
opt-colour-desc = Your colour (random if left out)
opt-level = level
opt-level-desc = The bot's strength (medium by default)
opt-move = move
opt-move-desc = The move: from and to squares
opt-explain-move-desc = A move to judge in the current position
opt-user = user
opt-user-desc = Whose record (yours by default)
opt-answer = answer
opt-answer-desc = Accept or decline the draw offered (without it: offer a draw, or accept one)
choice-variant-spanish = Spanish
choice-variant-portuguese = Portuguese
choice-variant-english = English (checkers)
choice-level-easy = Easy
choice-level-medium = Medium
choice-level-hard = Hard
choice-level-expert = Expert
choice-colour-white = White
choice-colour-black = Black
choice-answer-accept = Accept
choice-answer-decline = Decline

# The console's own lines.
console-greeting = damas console. Type /help for the commands, /play to play the bot, or “alice: /challenge bob” for two people (then “bob: /accept” or “bob: /decline”). Boards are saved in { $folder }
console-default-name = player
console-only-you = (only { $name } sees this)
console-board-saved = [board: { $path }]
console-board-not-saved = [board not saved: { $error }]
console-file-saved = [file: { $path }]
console-file-not-saved = [file not saved: { $error }]
console-unknown-command = Unknown command “{ $command }”. Type /help.
console-usage = Usage: { $usage }
console-unknown-option = /{ $command } has no option “{ $option }”. Usage: { $usage }
console-bad-choice = “{ $value }” is not a choice for { $option }: use { $choices }.
console-bad-number = “{ $value }” is not a whole number from { $min } to { $max } for { $option }.
console-extra-words = Too many words: “{ $value }”. Usage: { $usage }
erase-confirm = This erases your data from the bot: your name and id are replaced by “deleted player” in every finished game, and your record, ratings, scores and leaderboard places are removed. It cannot be undone. Erase?
button-forget = Erase me
button-keep = Keep my records
erase-kept = Nothing was erased.
erase-done = Done: your name and id are gone from every game and leaderboard, and your records are erased.
err-forget-while-playing = Finish or resign your game under way first, then ask again.
err-not-yours = These buttons are not for you.
cmd-forget-me = forget-me
cmd-forget-me-desc = Erase your name, records and leaderboard places from the bot
opt-days = days
opt-days-desc = Days each player has for a move (1 to 14; 3 if left out)

## threads and rematch
opt-thread = thread
opt-thread-desc = Play in a new thread of this channel (yes where the bot may open threads)
choice-thread-yes = Yes
choice-thread-no = No
thread-name = { $white } vs { $black } · { $variant }
thread-line = { $name } — playing in the thread
thread-line-over = { $name } — { $result }
thread-line-cancelled = { $name } — cancelled, counts for neither player
thread-unavailable = I cannot open threads in this channel (I lack the Create Public Threads permission), so the game is played here.
thread-failed = Discord would not let me open a thread here, so the game is played in this channel.
button-rematch = Rematch
err-rematch-stale = That rematch button is outdated: another game has started since, or the players have played again.
err-rematch-not-yours = Only the two players of that game can ask for a rematch.

## ballot (three-move openings for English draughts)
opt-opening = opening
opt-opening-desc = English draughts only: free, or three moves drawn from the tournament ballot
choice-opening-free = Free
choice-opening-ballot = Three-move ballot
ballot-drawn = Three-move ballot: { $moves }
err-ballot-variant = The three-move ballot is played only in English draughts, not in { $variant }. Choose variant English, or leave out the opening.
err-ballot-deck = The ballot's openings cannot be read right now; challenge with a free opening instead.

## puzzles
cmd-puzzle = puzzle
cmd-puzzle-desc = A shot to solve, privately: today's puzzle or a random one
opt-pick = pick
opt-pick-desc = Today's puzzle (the same for the whole server) or a random one
choice-pick-today = Today
choice-pick-random = Random
opt-type = type
opt-type-desc = Games (by default) or puzzle solvers
choice-type-games = Games
choice-type-puzzles = Puzzles
puzzle-title = Puzzle #{ $id } — { $variant }
# $goal: game when the solution wins the game, material when it wins pieces.
puzzle-caption = { $side } to play and { $goal ->
    [game] win
   *[material] win material
}
puzzle-daily = Today's puzzle: { $side } to play and { $goal ->
    [game] win
   *[material] win material
} (difficulty { $difficulty } out of 5).
puzzle-random = A puzzle: { $side } to play and { $goal ->
    [game] win
   *[material] win material
} (difficulty { $difficulty } out of 5).
puzzle-how = Find the winning move and play it with /move or the menu; the bot plays the defence. Only you see this puzzle.
puzzle-defence = the defence
puzzle-none = There are no puzzles for this variant.
puzzle-no-session = You have no puzzle going: start one with /puzzle.
puzzle-retired = Puzzle #{ $id } has been withdrawn: a recheck found it no longer has a single solution. Start another one with /puzzle.
puzzle-wrong = { $move } is not the solution. Look again: the puzzle is still waiting for you (this attempt counts as failed).
puzzle-right = { $move } is right! The defence answers { $reply }. Your move.
puzzle-right-go-on = { $move } is right! Keep going.
puzzle-solved = { $move } — solved!
puzzle-solved-late = { $move } — solved, but after a wrong move: your rating already counted the missed try ({ $rating }).
puzzle-standing = Puzzle rating { $rating } · streak { $streak } (best { $best })
puzzle-leaderboard-title = Leaderboard — puzzles
puzzle-leaderboard-empty = Nobody here has finished a puzzle yet.
puzzle-leaderboard-line = { $rank }. { $name } — { $rating } ({ $solved } solved, best streak { $streak })

## review
cmd-review = review
cmd-review-desc = Analyse a game: accuracy, mistakes and the better moves
opt-game = game
opt-game-desc = A game's id; the channel's game if left out
review-progress = Analysing { $bar } { $done }/{ $total }
review-title = Review: { $players }
review-player = { $name } ({ $colour }): accuracy { $accuracy }% · { $inaccuracies ->
        [one] 1 inaccuracy
       *[other] { $inaccuracies } inaccuracies
    } · { $mistakes ->
        [one] 1 mistake
       *[other] { $mistakes } mistakes
    } · { $blunders ->
        [one] 1 blunder
       *[other] { $blunders } blunders
    } · { $missed ->
        [one] 1 missed shot
       *[other] { $missed } missed shots
    }
review-swing = biggest swing: { $number } { $move }
review-no-errors = No inaccuracy, mistake or blunder: well played.
review-errors = { $count ->
        [one] One move to look at: press the button.
       *[other] { $count } moves to look at: press the button to page through them.
    }
review-page-title = Move to look at
review-page-move = { $number } { $move } ({ $colour }): { $class }
review-eval = Before the move: { $before }. After it: { $after }.
# The evaluation in figures, once: in men, from White's side (+ when White is better).
review-eval-score = Score in men, from White's side: { $before } → { $after }.
review-page-better = Better: { $move } (line { $line })
review-verdict = { $verdict ->
    [drawn] drawn (endgame tables)
   *[other] { $side } wins (endgame tables)
}
review-page-refutation = After { $move }: { $line }
review-missed-shot = missed shot
review-allowed-shot = walks into a shot
review-class-only-move = only move
review-class-best = best move
review-class-good = good move
review-class-inaccuracy = inaccuracy
review-class-mistake = mistake
review-class-blunder = blunder
button-review-first = Show the moves ▶
button-review-prev = ◀ Previous
button-review-next = Next ▶
err-review-no-moves = That game has no moves to analyse yet.
err-review-failed = The analysis could not be made; try again later.
err-restarting = The bot is restarting: try again in a moment.
err-review-unknown-game = There is no game “{ $id }” that you can review here.
err-review-expired = This analysis is no longer kept: run /review again.
replay-start = Start position
replay-status = { $number } { $move }
pdn-replay-attached = The game as a PDN file, and as an animation.

## titles
player-title-expert = Expert
player-title-pro = Pro
player-title-earned = 🏅 { $name } earns the title { $title } in { $variant }: a score of { $score } against the bot at { $level } level.
stats-player-title = { $variant }: { $title } (best score { $best } against the bot at { $level } level)
name-with-player-title = { $name } · { $title }

## last move in the board caption
caption-last-move = Last move { $move } ({ $name })
caption-no-progress = { $left ->
    [one] draw in 1 move
   *[other] draw in { $left } moves
}
caption-three-kings = 3 kings: { $left ->
    [one] 1 move
   *[other] { $left } moves
} to win
caption-turn = { $color } to play

# Records of games played elsewhere (PDN files).
pdn-refused = Game { $number }: { $reason }
pdn-err-game-type = its GameType is { $found }, not { $expected } ({ $variant }).
pdn-err-fen = its FEN tag cannot be read ({ $why }).
pdn-err-set-up = it announces a set-up position (SetUp "1") but has no FEN tag.
pdn-err-move = move { $number } { $move }: { $reason }
pdn-err-over = the game was already over.
pdn-err-unclosed-comment = a comment opened with a brace is never closed.
pdn-err-unclosed-variation = a variation opened with a parenthesis is never closed.
record-result-win = { $winner } won, as the record says.
record-result-draw = Drawn, as the record says.
record-result-unfinished = The record gives no result.
record-unclaimed-draw = Here the bot would have declared a draw after { $number } { $move } ({ $rule }); the players went on.
draw-rule-agreement = by agreement
draw-rule-repetition = the same position for the third time
draw-rule-no-progress = the no-progress move limit
draw-rule-three-kings = three kings against one for 13 moves
pdn-err-unknown-game-type = its GameType is { $found }, a game the bot does not play (21 English, 24 Spanish, 28 Portuguese).
record-unknown-player = unknown player
opt-file = file
opt-file-desc = A PDN file of a game played anywhere, to analyse instead
opt-number = number
opt-number-desc = Which game of the file (1 for the first)
opt-file-variant-desc = The file's variant, if its GameType tag does not say (Spanish otherwise)
review-file-game = Game { $number } of { $file }
button-review-gif = Animation (GIF)
review-gif-attached = The game as an animation.
err-review-gif-failed = The animation could not be drawn; try again later.
err-review-file-and-game = Give either a game's id or a file, not both.
err-review-file-too-big = That file is too big: a PDN file may have at most { $limit } KB.
err-review-file-not-pdn = That file is not a PDN game record: no game could be read in it.
err-review-file-not-allowed = That file does not come from Discord's attachments, so it was not fetched.
err-review-file-slow = Fetching that file took too long; try again.
err-review-file-unreachable = That file could not be fetched; try again.
err-review-file-number = That file holds { $count ->
    [one] one game
   *[other] { $count } games
}: there is no game { $number }.
err-review-file-game-refused = That game cannot be read. { $reason }
err-review-file-too-long = That game has { $plies ->
    [one] one move
   *[other] { $plies } moves
}; analyses stop at { $limit }.
## the evaluation of a reviewed game, from White's side: + when White is better
eval-even = even
eval-better = { $side } is better
eval-winning = { $side } is winning
eval-win = { $side } wins in { $moves ->
    [one] one move
   *[other] { $moves } moves
}
eval-won = { $side } has won
eval-proven-win = { $side } wins (the endgame tables prove it)
review-chart-side = { $side } better

## board pictures in words (the picture's description, /board text, --text-boards)
opt-text = text
opt-text-desc = Yes: the board in words, for screen readers (only you see it)
choice-text-yes = Yes
choice-text-no = No
alt-turn = { $color } to play ({ $name }).
alt-turn-before = The position before the move, with { $color } to play ({ $name }).
alt-last-move = Last move: { $move }, by { $color } ({ $name }).
# What shows of the last move: the pieces taken ($squares, a list) and whether the man is crowned.
alt-last-move-takes = { $count ->
    [one] It takes the piece on square { $squares }
   *[other] It takes the pieces on squares { $squares }
}{ $crowned ->
    [yes] , and the man is crowned.
   *[no] .
}
alt-last-move-crowns = The man is crowned.
alt-explained-move = The move explained: { $move }.
alt-puzzle-solved = Puzzle solved.
alt-side = { $color }: { $men ->
    [0] no men
    [one] man { $men_squares }
   *[other] men { $men_squares }
}; { $kings ->
    [0] no kings
    [one] king { $king_squares }
   *[other] kings { $king_squares }
}.
alt-captures = Capturing is mandatory: { $moves }.
alt-more = { $moves } or { $count ->
    [one] one other
   *[other] { $count } others
}
# A run of squares in a row: “men 1 to 12”.
alt-range = { $first } to { $last }
alt-reach = The piece on square { $from } can go to { $squares }.
alt-arrows = Arrows for the captures, each marked with the pieces it takes: { $captures }.
alt-arrow = { $move } ({ $pieces ->
    [one] one piece
   *[other] { WORDS($pieces) } pieces
}{ $kings ->
    [0] {""}
    [one] {", "}one king
   *[other] {", "}{ WORDS($kings) } kings
}; { $status })
alt-review-arrows = Arrows: the move played, { $played }, and the better one, { $better }.
alt-chart = Chart of the evaluation after each move. Above the middle line, White is better; below it, Black is better. At the end, { $end }.
alt-chart-marks = { $count ->
    [one] A dot marks the move to look at: { $marks }.
   *[other] Dots mark the moves to look at: { $marks }.
}
alt-chart-mark = { $class } at { $move }
# The standings in words: each player with their place, points, tie-breaks and rounds.
alt-standings = { $title }. { $count ->
    [one] One player
   *[other] { $count } players
}, by place: { $players }.
alt-standings-line = { $rank }. { $name }, { $points ->
    [one] 1 point
   *[other] { $points } points
}
alt-standings-rounds = rounds { $rounds }
alt-standings-legend = In the rounds, + won, = drew, − lost, · in play, then the opponent's place and w (with White), b (with Black) or F (not played).
alt-replay = Animation of the game, move by move, from the start position to the final one, described here.
err-bot-busy = The bot is busy right now: try again in a minute.
err-too-many-bot-games = You already have { $limit ->
    [one] a game
   *[other] { $limit } games
} against the bot under way: finish or resign one first.
err-too-many-challenges = You already have { $limit ->
    [one] an open challenge
   *[other] { $limit } open challenges
}: wait for an answer or withdraw one first.
err-review-already-asking = You already have an analysis under way: wait for it to finish.
err-review-under-way = Game #{ $id } is still being played: judging its moves now would tell a player what to play. It can be analysed as soon as it ends, with /review game:{ $id }.
err-forget-unsure = The erasure may or may not have been saved: run /forget-me again to be sure.

cmd-accept = accept
cmd-accept-desc = Accept the challenge open here
cmd-decline = decline
cmd-decline-desc = Decline the challenge open here (or withdraw yours)
cmd-moves = moves
cmd-moves-desc = The legal moves, or those starting with what you type
opt-from = from
opt-from-desc = The start of a move, for example 11 or 22x
cmd-quit = quit
cmd-quit-desc = Leave the console
moves-none = No legal move here starts like that.

## tournaments
cmd-tournament = tournament
cmd-tournament-desc = Tournaments run by the bot: Swiss or round robin
cmd-tournament-create = create
cmd-tournament-create-desc = Create a tournament in this channel; players join until you start it
cmd-tournament-join = join
cmd-tournament-join-desc = Enter this channel's tournament before it starts
cmd-tournament-leave = leave
cmd-tournament-leave-desc = Leave this channel's tournament (once it has started, you forfeit your remaining games)
cmd-tournament-start = start
cmd-tournament-start-desc = Start the tournament and pair round 1 (its organiser, or Manage Events)
cmd-tournament-standings = standings
cmd-tournament-standings-desc = The tournament's standings, with its tie-breaks
cmd-tournament-pairings = pairings
cmd-tournament-pairings-desc = Who plays whom in a round (the current one by default)
cmd-tournament-withdraw = withdraw
cmd-tournament-withdraw-desc = Withdraw a player from the tournament (its organiser, or Manage Events)
cmd-tournament-cancel = cancel
cmd-tournament-cancel-desc = Cancel the tournament; games under way go on (its organiser, or Manage Events)
opt-name = name
opt-name-desc = The tournament's name
opt-format = format
opt-format-desc = Swiss (by default) or round robin
opt-rounds = rounds
opt-rounds-desc = Rounds of a Swiss tournament (5 if left out)
opt-round = round
opt-round-desc = The round (the current one if left out)
opt-tournament = tournament
opt-tournament-desc = The tournament's number (this channel's latest if left out)
opt-player = player
opt-player-desc = The player to withdraw
choice-format-swiss = Swiss
choice-format-round-robin = Round robin
tb-buchholz = Buchholz
tb-median-buchholz = median Buchholz
tb-sonneborn-berger = Sonneborn–Berger
tournament-col-rank = #
tournament-col-name = Player
tournament-col-points = Pts
tournament-col-bye = bye
# The colour's letter in the standings' rounds: “+3w” beat the third with White.
tournament-letter-white = w
tournament-letter-black = b
tb-buchholz-short = BH
tb-median-buchholz-short = MBH
tb-sonneborn-berger-short = SB
tb-direct-encounter-short = DE
tb-direct-encounter = direct encounter
tournament-format-swiss = { $rounds ->
    [one] a one-round Swiss
   *[other] a { $rounds }-round Swiss
}
tournament-format-round-robin = a round robin
tournament-created = { $organiser } created the tournament “{ $name }” (number { $id }), { $format }, { $variant }, { $days ->
    [one] one day
   *[other] { $days } days
} per move. Join it with /tournament join.
tournament-joined = { $name } joined “{ $tournament }” ({ $count ->
    [one] one player
   *[other] { $count } players
} so far).
tournament-left = { $name } left “{ $tournament }”.
tournament-withdrawn = { $name } was withdrawn from “{ $tournament }”: their games still in play count as lost, and later rounds are paired without them.
tournament-cancelled = { $name } cancelled the tournament “{ $tournament }”. Games under way go on as ordinary games.
tournament-standings-title = { $round ->
    [0] “{ $tournament }” before round 1
   *[other] “{ $tournament }” after round { $round }
}
tournament-round-title = “{ $tournament }”, round { $round }
tournament-final-title = “{ $tournament }”, final standings
tournament-winner = { $count ->
    [one] The winner is { $names }.
   *[other] Shared first place for { $names }.
}
tournament-standing-line = { $rank }. { $name } — { $points } { $unit ->
    [one] point
   *[other] points
} ({ $tiebreaks })
tournament-pairing-line = Board { $board }. { $white } (white) against { $black } (black) — { $result }
tournament-bye-line = Board { $board }. { $name } has the bye (counted as a win)
tournament-in-play = in play
tournament-no-players = Nobody has joined yet.
tournament-thread = { $tournament } · round { $round } · { $white } vs { $black }
err-no-tournament = There is no tournament in this channel. Create one with /tournament create.
err-tournament-unknown = There is no tournament number { $id } in this server.
err-tournament-server-only = Tournaments are played in a server's channels, not in direct messages.
err-tournament-name = A tournament needs a name of 1 to { $limit } characters.
err-ballot-english-only = The three-move ballot is played only in English draughts. Choose variant English, or leave out the opening.
err-tournament-channel-busy = This channel already runs “{ $name }” (number { $id }). Create the new one in another channel.
err-tournament-started = That tournament has already started, so entries can no longer change.
err-tournament-joined-already = You have already joined this tournament.
err-tournament-not-entered = You are not in this tournament.
err-tournament-player-not-entered = { $name } is not in this tournament.
err-tournament-organiser-only = Only the tournament's organiser, or members with Manage Events or Manage Messages, can do that.
err-tournament-too-few = A tournament needs at least 3 players to start; it has { $count ->
    [one] one
   *[other] { $count }
}.
err-tournament-pairing = The first round could not be paired. Nothing has changed.
err-tournament-not-started = The tournament has not started yet, so there are no pairings.
err-tournament-no-round = There is no round { $round } yet; { $rounds ->
    [one] one round has
   *[other] { $rounds } rounds have
} been paired.
err-tournament-not-running = That tournament is not running.
err-tournament-withdrawn-already = That player has already been withdrawn.
cmd-tournament-pdn = pdn
cmd-tournament-pdn-desc = Every game of the tournament in one PDN file
tournament-pdn-attached = The games of “{ $tournament }” ({ $count ->
    [one] one game
   *[other] { $count } games
}) as a PDN file.
err-tournament-no-games = No game of this tournament has started yet.
opt-start = start
opt-start-desc = Starts by itself at a UTC time (2026-12-05 18:00) or in a while (in 2h); otherwise when you start it
tournament-starts-at = It starts by itself at { $when }, or earlier if its organiser starts it.
tournament-scheduled-too-few = “{ $tournament }” was due to start at { $when }, but only { $count ->
    [one] one player
   *[other] { $count } players
} had joined; it needs at least 3, so it is cancelled.
err-tournament-start-unreadable = I cannot read “{ $text }” as a start time. Write a UTC date and time like 2026-12-05 18:00, or a time from now like in 2h, in 90m or in 3d.
err-tournament-start-past = That start time has already passed (times are UTC; it is { $now } now). Give a later one, or leave start out and use /tournament start.
err-tournament-start-far = A tournament can be set to start at most { $days ->
    [one] one day
   *[other] { $days } days
} ahead.

## what the bot says is what it does
err-tournament-running-already = The tournament has already started (round { $round }).
tournament-standings-title-playing = “{ $tournament }”, round { $round } in progress
tournament-name-withdrawn = { $name } (withdrawn)
tournament-col-withdrawn = (withdrawn)
puzzle-solved-other = { $move } also wins — solved! The main line was { $line }.
puzzle-solved-other-late = { $move } also wins — solved, but after a wrong move: your rating already counted the missed try ({ $rating }). The main line was { $line }.
console-unclosed-quote = A quotation mark is left open: add the closing one.
# `damas review`'s lines: one a move, then one a side.
review-line-mover = { $colour ->
    [white] W
   *[black] B
}
review-line-class = { $class ->
    [only-move] only-move
    [best] best
    [good] good
    [inaccuracy] inaccuracy
    [mistake] mistake
   *[blunder] blunder
}
review-line-better = better { $move }
review-line-missed-shot = missed shot: { $line }
review-line-allowed-shot = allows shot: { $line }
review-line-player = { $colour }: accuracy { $accuracy }%, inaccuracies { $inaccuracies }, mistakes { $mistakes }, blunders { $blunders }, missed shots { $missed }
review-line-swing = biggest swing at ply { $ply }

## Play anywhere: private conversations, and the menu on a member
err-needs-server = This command needs a server: use it in a server's channel. Games, puzzles and reviews also work here.
# The command in the menu of a member (right-click, Apps).
menu-challenge = Challenge to draughts

## privacy: /my-data, and what /help says of the bot's data
cmd-my-data = my-data
cmd-my-data-desc = Get a file of everything the bot keeps about you (only you see it)
my-data-title = Your data
my-data-attached = Here is everything the bot keeps about you: your record and ratings, your games ({ $games ->
    [one] one game
   *[other] { $games } games
}) with their moves, your puzzles, your tournaments and your open challenges. Other players appear only as your opponents. /forget-me erases it all.
my-data-left-out = The file was too big to send whole, so it leaves out your { $count ->
    [one] oldest finished game
   *[other] { $count } oldest finished games
}.
help-privacy = Your data: /my-data sends you everything the bot keeps about you, and /forget-me erases it.
help-privacy-link = Your data: what the bot keeps, why and for how long is explained at { $url }. /my-data sends you all of it, and /forget-me erases it.

## server settings (/settings) and who may use what
cmd-settings = settings
cmd-settings-desc = See or change how the bot plays on this server (Manage Server)
opt-settings-variant-desc = The variant of new games and tournaments when none is named
opt-settings-days-desc = Days per move of challenges and tournaments when none are given (1 to 14)
opt-settings-thread-desc = Whether new games open in a thread of their own when the command does not say
opt-add-channel = add-channel
opt-add-channel-desc = A channel where games and tournaments may start (none named: every channel)
opt-remove-channel = remove-channel
opt-remove-channel-desc = A channel where games and tournaments may no longer start
opt-role = role
opt-role-desc = A role whose members may organise tournaments and cancel games
opt-language = language
opt-language-desc = The language of the bot's public messages on this server
opt-reset = reset
opt-reset-desc = Put a setting back to the bot's default
choice-language-es = Spanish
choice-language-en = English
choice-setting-variant = Variant
choice-setting-days = Days per move
choice-setting-thread = Threads
choice-setting-channels = Game channels
choice-setting-role = Organiser role
choice-setting-language = Language
choice-setting-all = Everything
settings-title = This server's settings
settings-variant = Variant: { $shown }
settings-days = Time per move in challenges and tournaments: { $shown }
settings-thread = New games in a thread of their own: { $shown }
settings-channels = Games and tournaments start in: { $shown }
settings-role = Organiser role: { $shown }
settings-language = Public messages in: { $shown }
settings-default = { $shown } (the bot's default)
settings-yes = yes
settings-no = no
settings-all-channels = every channel
settings-no-role = none (members with Manage Events organise)
settings-own-language = each member's own language
settings-changed = changed by { $who } on { $when }
settings-changed-forgotten = changed on { $when } by a member who has since erased their data
settings-time = { $count } { $unit ->
    [days] { $count ->
        [one] day
       *[other] days
    }
    [hours] { $count ->
        [one] hour
       *[other] hours
    }
    [minutes] { $count ->
        [one] minute
       *[other] minutes
    }
   *[seconds] { $count ->
        [one] second
       *[other] seconds
    }
}
settings-role-note = Discord shows /cancel only to members who can manage messages: to let { $role } see it too, allow the role for it in Server Settings → Integrations → damas.
err-settings-server-only = Settings belong to a server: use /settings in one.
err-settings-permission = Only members who can manage the server may change its settings.
err-settings-channel-both = That channel cannot be added and removed at once: name it in one of the two.
err-settings-too-many-channels = A server can name at most { $limit } game channels: remove one first.
err-start-channel = On this server, games and tournaments start in { $channels }.
err-tournament-create-role = On this server, tournaments are created by members of { $role } and members who can manage events.
console-bad-id = “{ $value }” is no id for { $option }: give its number.

## the board page: its button, its links and what the page says (issue 45)
button-board = Open the board
board-link-player = Your own board for this game, where you play by clicking: <{ $url }>
    Only you can move with this link, for { $hours ->
        [one] one hour
       *[other] { $hours } hours
    }; the button gives a new one. Keep it to yourself: whoever has it moves for you.
board-link-spectator = Watch this game live: <{ $url }>
err-board-off = The board page is not set up on this bot.
board-no-game = No game has been played in this channel yet.
board-spectator = You are watching: only each player's own link can move.
board-link-expired = This link has expired, so you are watching. Press “Open the board” on the game's message for a new one.
board-link-other = This link is for another game, so you are watching this one.
board-link-bad = This link is not valid, so you are watching.
board-your-turn = Your turn: choose a piece, then where it goes.
board-waiting = Waiting for { $name } to move.
board-clock = { $name } has { $count } { $unit ->
    [days] { $count ->
        [one] day
       *[other] days
    }
    [hours] { $count ->
        [one] hour
       *[other] hours
    }
    [minutes] { $count ->
        [one] minute
       *[other] minutes
    }
   *[seconds] { $count ->
        [one] second
       *[other] seconds
    }
} left to move.
board-page-title = Draughts board
board-keyboard-help = With the keyboard: the arrow keys move the frame, Enter picks the piece under it and then each square it goes to, Escape starts again. Or type the move below.
board-type-move = Your move, like 11-15 or 15x22
board-play = Play
board-choose-capture = More than one capture goes that way. Which one?
board-capture-choice = { $move }, taking { $squares }
board-connection-lost = Connection lost: trying again…
board-too-fast = Too many requests at once: wait a moment.
board-not-found = There is no such board.

## activity
activity-launch-desc = Open the game of this conversation on a board you click
activity-off = The Discord Activity is not set up on this bot.
activity-outside-discord = This page is damas's Discord Activity: open it in Discord, from the App Launcher or the game's “Open the board” button.
activity-not-built = This bot was built without the Activity's script (run npm ci and npm run build in web/, then build damas again). The board page still works through each player's link.
activity-sign-in-refused = Discord did not confirm who you are. Close the Activity and open it again.
activity-discord-unreachable = Discord could not be reached to confirm who you are. Try again in a moment.
activity-sign-in-failed = Signing in through Discord failed. Close the Activity and open it again.
board-resign-confirm = Click again to resign

## book
# The opening book (issue 46): the review names the moves it holds.
review-book = { $count ->
    [one] One move came from the opening book
   *[other] { $count } moves came from the opening book
}, up to { $number } { $move }: masters play them, so none counts as an error.
review-line-book = book

## activity sign-in limit
# The Activity's sign-ins are limited (each asks Discord): the page shows this and the
# seconds to wait.
activity-sign-in-busy = { $seconds ->
    [one] Many people are opening the board right now. Try again in a second.
   *[other] Many people are opening the board right now. Try again in { $seconds } seconds.
}

## books grown from self-play
# The Spanish and Portuguese opening books are grown from Expert's own deep self-play (no
# master collection exists): the review names their moves with whose they are.
review-book-selfplay = { $count ->
    [one] One move came from the opening book
   *[other] { $count } moves came from the opening book
}, up to { $number } { $move }: the bot at expert level chose them thinking deeply in games against itself, so none counts as an error.
