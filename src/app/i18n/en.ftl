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
