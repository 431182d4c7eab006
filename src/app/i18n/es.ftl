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
result-win-time = Ganan las { $winner }: el rival perdió por tiempo.
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

level-easy = fácil
level-medium = medio
level-hard = difícil
level-expert = experto
bot-name = Bot ({ $level })
deleted-player = jugador eliminado
err-storage = Algo falló al guardar la partida; no se cambió nada. Vuelve a intentarlo.
players-line = ⚪ { $white } contra ⚫ { $black }
status-turn = Jugada { $number } · juega { $name } ({ $color })
status-no-progress = { $left ->
    [one] queda una jugada para las tablas por falta de progreso
   *[other] quedan { $left } jugadas para las tablas por falta de progreso
}
status-three-kings = tres damas contra una: quedan { $left } jugadas para ganar
status-draw-offered = { $name } ofrece tablas
button-draw-accept = Aceptar tablas
button-draw-decline = Rechazar tablas
button-draw = Ofrecer tablas
button-explain = Explicar
button-undo = Deshacer
button-resign = Abandonar
menu-move = Elige tu jugada
menu-piece = Elige la pieza que mueves
menu-piece-moves = { $count ->
    [one] una jugada
   *[other] { $count } jugadas
}
menu-captures = come { $pieces }{ $kings ->
    [0] {""}
   *[other] {" "}({ $kings } damas)
}
err-no-game = No hay ninguna partida en este canal. Empieza una con /desafiar o /jugar.
err-not-your-game = No juegas en esta partida.
err-position-changed = La posición cambió antes de que llegara tu jugada; no se jugó nada. Mira el tablero nuevo y vuelve a intentarlo.
err-game-over = Esta partida ya terminó.
err-not-your-turn = No es tu turno.
legal-moves = Jugadas legales: { $moves }
played = { $name } jugó { $move }.
bot-played = { $name } jugó { $move }.
err-bot-failed = El bot no pudo mover; la partida queda como estaba.
resigned = { $name } abandonó.
bot-accepts-draw = El bot acepta las tablas.
bot-declines-draw = El bot rechaza las tablas y sigue jugando.
err-draw-already-offered = Ya ofreciste tablas; espera la respuesta.
draw-accepted = { $name } aceptó las tablas.
draw-offered = { $name } ofrece tablas. Responde con los botones o con /tablas.
draw-declined = { $name } rechazó las tablas.
err-no-draw-offer = No hay ninguna oferta de tablas que responder.
err-undo-people = Deshacer solo vale en partidas contra el bot.
err-bot-thinking = Espera primero la jugada del bot.
err-nothing-to-undo = No hay ninguna jugada tuya que deshacer.
undone = Se deshicieron tu última jugada y la respuesta del bot. Esta partida ya no puntúa.
explain-last = Última jugada: { $move }
err-no-move-yet = Todavía no se jugó nada. Pregunta por una jugada con /explicar jugada:11-15.
explain-title = ¿Por qué?
err-stale = Ese tablero está desactualizado: usa el último tablero del canal (o /tablero).
err-stale-over = Esa partida ya terminó.
choose-destination = Elige adónde va:
forced-capture = Era obligatoria: { $law }
err-challenge-self = No puedes desafiarte a ti mismo.
err-challenge-bot = No puedes desafiar a una cuenta de bot. Para jugar contra mí, usa /jugar.
err-challenge-open = Ya hay un desafío abierto en este canal.
challenge-title = ¡Un desafío!
challenge-posted = { $challenger } desafía a { $opponent } a una partida de { $variant }. { $opponent }, ¿aceptas? (Caduca en { $minutes } minutos.)
button-accept = Aceptar
button-decline = Rechazar
err-challenge-gone = Ese desafío ya no está abierto.
challenge-declined = { $name } rechazó el desafío.
err-not-your-challenge = Este desafío no es para ti.
err-challenge-expired = Ese desafío caducó.
err-channel-busy = Ya hay una partida en este canal. Termínala primero, o juega en otro canal o hilo.
game-started = ¡Empieza la partida!
help-title = Cómo jugar
help = /desafiar rival [variante] [color] — desafía a alguien
    /jugar [nivel] [variante] [color] — juega contra el bot (fácil, medio, difícil, experto)
    /mover jugada — juega una jugada, como 11-15 o 22x15 (o usa el menú bajo el tablero)
    /tablero — muestra otra vez el tablero
    /explicar [jugada] — por qué la última jugada (o una jugada) vale o no vale
    /tablas — ofrece o acepta tablas · /abandonar — ríndete · /deshacer — vuelve atrás (contra el bot)
    /reglas [variante] · /estadisticas [usuario] · /clasificacion [variante] [nivel] · /pdn — la partida en un archivo
    /cancelar — los moderadores terminan una partida atascada
    Las casillas van numeradas del 1 al 32 como en la imagen.
rules-spanish = Se juega en las 32 casillas oscuras de un tablero de 8×8, con 12 piezas cada uno; empiezan las blancas.
    • El peón avanza una casilla en diagonal hacia adelante y come solo hacia adelante, saltando una pieza contigua.
    • El peón que llega a la última fila corona y es dama. La dama vuela: recorre la diagonal entera, hacia adelante o atrás, y come a distancia, cayendo en cualquier casilla libre detrás.
    • Comer es obligatorio. Ley de la cantidad: hay que comer el mayor número de piezas. Ley de la calidad: entre esas, las que se llevan más damas.
    • La captura sigue mientras pueda; las piezas comidas se sacan al final y no se saltan dos veces. Un peón que corona comiendo se planta ahí.
    • Pierde quien no tiene piezas o no puede mover. Tablas: de común acuerdo, la misma posición tres veces, 20 jugadas de cada uno moviendo solo damas y sin comer, y tres damas contra una que no ganan en 13 jugadas.
rules-portuguese = Como las damas españolas: damas voladoras, el peón come solo hacia adelante, leyes de la cantidad y de la calidad. Empiezan las blancas.
    • Tablas: de común acuerdo, la misma posición tres veces, 20 jugadas de cada uno sin comer.
rules-english = Damas inglesas (checkers): 8×8, 12 piezas cada uno; empiezan las negras.
    • El peón mueve y come una casilla en diagonal, solo hacia adelante. La dama mueve y come de a una casilla en cualquier dirección.
    • Comer es obligatorio, pero se elige cualquier captura; una vez empezada, hay que completarla. Un peón que corona comiendo se planta ahí.
    • Pierde quien no tiene piezas o no puede mover. Tablas: de común acuerdo, la misma posición tres veces, 40 jugadas de cada uno sin comer ni mover peón.
stats-none = { $name } todavía no jugó.
stats-title = Historial de { $name }:
stats-people = { $variant } contra personas: { $wins } G · { $losses } P · { $draws } T — puntuación { $rating }
stats-bot = { $variant } contra el bot ({ $level }): { $wins } G · { $losses } P · { $draws } T — mejor puntuación { $best }
err-guild-only = Las clasificaciones son por servidor; usa este comando en un servidor.
leaderboard-title = Clasificación — { $variant } (puntuación)
leaderboard-bot-title = Clasificación — { $variant } contra el bot ({ $level })
leaderboard-empty = Todavía no hay partidas puntuadas.
leaderboard-line = { $rank }. { $name } — { $score } ({ $games } partidas)
pdn-attached = La partida en PDN:
err-cancel-permission = Solo quien puede gestionar mensajes puede cancelar una partida.
cancelled = { $name } canceló la partida de este canal. No cuenta para nadie.
