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
err-man-captures-forward = A man captures only forward, never backwards.
err-occupied = Square { $sq } is occupied.
err-unreachable = The piece on { $from } cannot reach { $to } in one move.
err-short-king = In English draughts a king moves only one square at a time.
err-capture-mandatory = Capturing is mandatory. Available: { $moves }.
err-quantity = Law of quantity: you must take the most pieces ({ $best }); that move takes { $yours }. Allowed: { $moves }.
err-quality = Law of quality: among captures of the same size you must take the most kings ({ $best }); that move takes { $yours }. Allowed: { $moves }.
err-capture-incomplete = A capture cannot stop half way: the piece must go on capturing. Complete it: { $moves }.
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
result-draw-three-kings = Draw: three kings did not beat one within 13 moves.

law-no-capture = No capture was available, so any move was allowed.
law-mandatory = Capturing is mandatory: a capture had to be played.
law-quantity = Law of quantity: only the captures taking the most pieces ({ $best }) were allowed.
law-quality = Law of quality: among the captures taking { $best } pieces, only those taking the most kings ({ $kings }) were allowed.
law-free-choice = Capturing is mandatory, but in English draughts any capture may be chosen.
explain-captures-header = { $count ->
    [one] One capture was available:
   *[other] { $count } captures were available:
}
explain-capture-line = • { $move } takes { $pieces ->
    [one] one piece
   *[other] { $pieces } pieces
}{ $kings ->
    [0] {""}
    [one] {" "}(one king)
   *[other] {" "}({ $kings } kings)
} — { $status }
explain-allowed = allowed
explain-excluded-quantity = excluded by the law of quantity
explain-excluded-quality = excluded by the law of quality
verdict-legal = { $move } is legal.
verdict-illegal = Not legal: { $reason }

level-easy = easy
level-medium = medium
level-hard = hard
level-expert = expert
bot-name = Bot ({ $level })
deleted-player = deleted player
err-storage = Something went wrong saving the game; nothing was changed. Please try again.
players-line = ⚪ { $white } vs ⚫ { $black }
status-turn = Move { $number } · { $name } ({ $color }) to play
status-no-progress = { $left ->
    [one] one move left before the no-progress draw
   *[other] { $left } moves left before the no-progress draw
}
status-three-kings = three kings against one: { $left } moves left to win
status-draw-offered = { $name } offers a draw
button-draw-accept = Accept draw
button-draw-decline = Decline draw
button-draw = Offer draw
button-explain = Explain
button-undo = Undo
button-resign = Resign
menu-move = Choose your move
menu-piece = Choose a piece to move
menu-piece-moves = { $count ->
    [one] one move
   *[other] { $count } moves
}
menu-captures = takes { $pieces }{ $kings ->
    [0] {""}
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
err-bot-failed = The bot could not move; the game is kept as it was.
resigned = { $name } resigned.
bot-accepts-draw = The bot accepts the draw.
bot-declines-draw = The bot declines the draw and plays on.
err-draw-already-offered = You have already offered a draw; wait for the answer.
draw-accepted = { $name } accepted the draw.
draw-offered = { $name } offers a draw. Answer with the buttons or /draw.
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
forced-capture = It was forced: { $law }
err-challenge-self = You cannot challenge yourself.
err-challenge-bot = You cannot challenge a bot account. To play me, use /play.
err-challenge-open = There is already an open challenge in this channel.
challenge-title = A challenge!
challenge-posted = { $challenger } challenges { $opponent } to a game of { $variant }. { $opponent }, do you accept? (It expires in { $minutes } minutes.)
button-accept = Accept
button-decline = Decline
err-challenge-gone = That challenge is no longer open.
challenge-declined = { $name } declined the challenge.
err-not-your-challenge = This challenge is not for you.
err-challenge-expired = That challenge has expired.
err-channel-busy = There is already a game in this channel. Finish it first, or play in another channel or thread.
game-started = The game begins!
help-title = How to play
help = /challenge opponent [variant] [colour] — challenge someone
    /play [level] [variant] [colour] — play the bot (easy, medium, hard, expert)
    /move move — play a move, like 11-15 or 22x15 (or use the menu under the board)
    /board — show the board again
    /explain [move] — why the last move (or a move) is or isn't allowed
    /draw — offer or accept a draw · /resign — give up · /undo — take back (against the bot)
    /rules [variant] · /stats [user] · /leaderboard [variant] [level] · /pdn — the game as a file
    /cancel — moderators end a stuck game
    Squares are numbered 1–32 as on the picture.
rules-spanish = Played on the 32 dark squares of an 8×8 board, 12 pieces each; White moves first.
    • Men move one square diagonally forward and capture forward only, by jumping an adjacent piece.
    • A man reaching the last row becomes a king. Kings fly: any distance along a diagonal, forwards or backwards, and capture at a distance, landing on any empty square behind.
    • Capturing is mandatory. Law of quantity: you must take the most pieces. Law of quality: among those, the most kings.
    • A capture goes on while it can; captured pieces are removed at the end and cannot be jumped twice. A man crowned during a capture stops there.
    • You lose with no pieces or no legal move. Draws: agreement, the same position three times, 20 moves each with only kings moving and no capture, and three kings against one that do not win within 13 moves.
rules-portuguese = Like Spanish draughts: flying kings, men capture forward only, the laws of quantity and quality. White moves first.
    • Draws: agreement, the same position three times, 20 moves each without a capture.
rules-english = English draughts (checkers): 8×8, 12 pieces each; Black moves first.
    • Men move and capture one square diagonally forward only. Kings move and capture one square in every direction.
    • Capturing is mandatory, but you may choose any capture; once started, it must be completed. A man crowned during a capture stops there.
    • You lose with no pieces or no legal move. Draws: agreement, the same position three times, 40 moves each without a capture or a man move.
stats-none = { $name } has not played yet.
stats-title = Record of { $name }:
stats-people = { $variant } vs people: { $wins } W · { $losses } L · { $draws } D — rating { $rating }
stats-bot = { $variant } vs bot ({ $level }): { $wins } W · { $losses } L · { $draws } D — best score { $best }
err-guild-only = Leaderboards are per server; use this command in a server.
leaderboard-title = Leaderboard — { $variant } (rating)
leaderboard-bot-title = Leaderboard — { $variant } against the bot ({ $level })
leaderboard-empty = No ranked games yet.
leaderboard-line = { $rank }. { $name } — { $score } ({ $games } games)
pdn-attached = The game in PDN:
err-cancel-permission = Only members who can manage messages may cancel a game.
cancelled = { $name } cancelled the game in this channel. It counts for no one.
