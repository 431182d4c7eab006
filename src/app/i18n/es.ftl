# Textos en español. Cada id debe estar también en en.ftl (lo comprueba un test).

variant-spanish = Damas españolas
variant-portuguese = Damas portuguesas
variant-english = Damas inglesas (checkers)
color-white = Blancas
color-black = Negras

err-empty = No hay jugada. Escríbela como 11-15, o 22x15 para comer.
err-not-a-move = «{ $text }» no es una jugada. Escribe las casillas como 11-15, o 22x15 para comer.
err-square-range = No existe la casilla { $n }: las casillas van del 1 al 32.
err-one-square = Una jugada necesita dos casillas: dónde está la pieza y adónde va (por ejemplo { $sq }-…).
err-no-piece = No hay ninguna pieza en la casilla { $sq }.
err-opponent-piece = La pieza de la casilla { $sq } es de tu rival.
err-ambiguous = Esas casillas sirven para más de una captura: { $moves }. Escribe todas las casillas de llegada para elegir.
err-man-forward = El peón solo avanza hacia adelante.
err-man-captures-forward = El peón solo come hacia adelante, nunca hacia atrás.
err-occupied = La casilla { $sq } está ocupada.
err-unreachable = La pieza de { $from } no puede llegar a { $to } en una jugada.
err-short-king = En las damas inglesas la dama se mueve de a una casilla.
err-capture-mandatory = Comer es obligatorio. Puedes: { $moves }.
err-quantity = Ley de la cantidad: hay que comer el mayor número de piezas ({ $best }); esa jugada come { $yours }. Valen: { $moves }.
err-quality = Ley de la calidad: entre capturas iguales hay que comer más damas ({ $best }); esa jugada come { $yours }. Valen: { $moves }.
err-capture-incomplete = Una captura no se puede parar a la mitad: la pieza tiene que seguir comiendo. Complétala: { $moves }.
err-no-such-capture = No hay ninguna captura de { $from } a { $to }.

result-ongoing = La partida sigue.
result-win-no-pieces = Ganan las { $winner }: al rival no le quedan piezas.
result-win-no-moves = Ganan las { $winner }: el rival no puede mover.
result-win-resignation = Ganan las { $winner } por abandono del rival.
result-win-abandoned = Ganan las { $winner }: el rival dejó la partida.
result-draw-agreement = Tablas de común acuerdo.
result-draw-repetition = Tablas: la misma posición por tercera vez.
result-draw-no-progress = Tablas: se alcanzó el límite de jugadas sin progreso.
result-draw-three-kings = Tablas: tres damas no vencieron a una en 13 jugadas.

law-no-capture = No había ninguna captura, así que valía cualquier jugada.
law-mandatory = Comer es obligatorio: había que jugar una captura.
law-quantity = Ley de la cantidad: solo valían las capturas que comen más piezas ({ $best }).
law-quality = Ley de la calidad: entre las capturas de { $best } piezas, solo valían las que comen más damas ({ $kings }).
law-free-choice = Comer es obligatorio, pero en las damas inglesas se elige cualquier captura.
explain-captures-header = { $count ->
    [one] Había una captura:
   *[other] Había { $count } capturas:
}
explain-capture-line = • { $move } come { $pieces ->
    [one] una pieza
   *[other] { $pieces } piezas
}{ $kings ->
    [0] {""}
    [one] {" "}(una dama)
   *[other] {" "}({ $kings } damas)
} — { $status }
explain-allowed = vale
explain-excluded-quantity = la descarta la ley de la cantidad
explain-excluded-quality = la descarta la ley de la calidad
verdict-legal = { $move } es legal.
verdict-illegal = No es legal: { $reason }
