# Textos en español. Cada id debe estar también en en.ftl (lo comprueba un test).

variant-spanish = damas españolas
variant-portuguese = damas portuguesas
variant-english = damas inglesas
color-white = blancas
color-black = negras

err-empty = No hay jugada. Escríbela como 11-15, o 22x15 para comer.
err-not-a-move = «{ $text }» no es una jugada. Escribe las casillas como 11-15, o 22x15 para comer.
err-square-range = No existe la casilla { $n }: las casillas van del 1 al 32.
err-one-square = Una jugada necesita dos casillas: dónde está la pieza y adónde va (por ejemplo { $sq }-…).
err-no-piece = No hay ninguna pieza en la casilla { $sq }.
err-opponent-piece = La pieza de la casilla { $sq } es de tu rival.
err-ambiguous = Esas casillas sirven para más de una captura: { $moves }. Escribe todas las casillas de llegada para elegir.
err-man-forward = El peón solo se mueve hacia adelante.
err-man-captures-forward = El peón solo come hacia adelante, nunca hacia atrás.
err-occupied = La casilla { $sq } está ocupada.
err-unreachable = La pieza de la casilla { $from } no puede llegar a la casilla { $to } en una jugada.
err-short-king = En las damas inglesas la dama solo se mueve una casilla cada vez.
err-capture-mandatory = Comer es obligatorio. { $count ->
    [one] La única captura válida es { $moves }.
   *[other] Capturas válidas: { $moves }.
}
err-quantity = Ley de la cantidad: hay que comer el mayor número de piezas; se { $best ->
    [one] puede comer una
   *[other] pueden comer { WORDS($best) }
}, y esa jugada { $yours ->
    [0] no come ninguna
    [one] solo come una
   *[other] solo come { WORDS($yours) }
}. { $count ->
    [one] La única captura válida es { $moves }.
   *[other] Capturas válidas: { $moves }.
}
err-quality = Ley de la calidad: entre las capturas del mismo número de piezas, hay que comer el mayor número de damas; se { $best ->
    [one] puede comer una
   *[other] pueden comer { WORDS($best) }
}, y esa jugada { $yours ->
    [0] no come ninguna
    [one] solo come una
   *[other] solo come { WORDS($yours) }
}. { $count ->
    [one] La única captura válida es { $moves }.
   *[other] Capturas válidas: { $moves }.
}
err-capture-incomplete = No se puede dejar una captura por la mitad: la pieza sigue comiendo mientras pueda. Complétala: { $moves }.
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
result-draw-three-kings = Tablas: tres damas no vencieron a una dama sola a tiempo.

# Las explicaciones hablan en presente de la posición actual ($tense = present) y en pasado
# de una jugada ya hecha ($tense = past).
law-no-capture = { $tense ->
    [present] No hay ninguna captura, así que no es obligatorio comer.
   *[past] No había ninguna captura, así que no era obligatorio comer.
}
law-mandatory = { $tense ->
    [present] Comer es obligatorio: hay que jugar una captura.
   *[past] Comer es obligatorio: había que jugar una captura.
}
law-quantity = { $tense ->
    [present] Ley de la cantidad: solo valen las capturas que comen más piezas ({ $best }).
   *[past] Ley de la cantidad: solo valían las capturas que comían más piezas ({ $best }).
}
law-quality = { $tense ->
    [present] Ley de la calidad: entre las capturas que comen { $best ->
        [one] una pieza
       *[other] { WORDS($best) } piezas
    }, solo valen las que comen más damas ({ $kings }).
   *[past] Ley de la calidad: entre las capturas que comían { $best ->
        [one] una pieza
       *[other] { WORDS($best) } piezas
    }, solo valían las que comían más damas ({ $kings }).
}
law-free-choice = { $tense ->
    [present] Comer es obligatorio, pero en las damas inglesas se puede elegir cualquier captura.
   *[past] Comer es obligatorio, pero en las damas inglesas se podía elegir cualquier captura.
}
explain-captures-header = { $tense ->
    [present] { $count ->
        [one] Hay una captura:
       *[other] Hay { WORDS($count) } capturas:
    }
   *[past] { $count ->
        [one] Había una captura:
       *[other] Había { WORDS($count) } capturas:
    }
}
explain-capture-line = • { $move } come { $pieces ->
    [one] una pieza
   *[other] { WORDS($pieces) } piezas
}{ $kings ->
    [0] {""}
    [one] {" "}(una dama)
   *[other] {" "}({ WORDS($kings) } damas)
} — { $status }
explain-allowed = válida
explain-excluded-quantity = descartada por la ley de la cantidad
explain-excluded-quality = descartada por la ley de la calidad
verdict-legal = { $move } es legal.
verdict-illegal = { $move } no es legal. { $reason }
# Tras «Comer es obligatorio…» y la lista de capturas: por qué esta jugada no vale, sin repetirlo.
verdict-not-a-capture = { $move } no es legal: no come, y hay que comer.

level-easy = fácil
level-medium = medio
level-hard = difícil
level-expert = experto
bot-name = Bot · { $level }
deleted-player = jugador eliminado
err-storage = Algo falló al guardar la partida; no se cambió nada. Vuelve a intentarlo.
players-line = ⚪ { $white } contra ⚫ { $black }
status-turn = Jugada { $number } · juegan las { $color } ({ $name })
status-no-progress = { $left ->
    [one] queda una jugada para las tablas por falta de progreso
   *[other] quedan { $left } jugadas para las tablas por falta de progreso
}
status-three-kings = tres damas contra una: { $left ->
    [one] queda una jugada
   *[other] quedan { $left } jugadas
} para ganar
status-draw-offered = { $name } ofrece tablas
button-draw-accept = Aceptar tablas
button-draw-decline = Rechazar tablas
button-draw = Ofrecer tablas
button-explain = Explicar
button-undo = Deshacer
button-resign = Abandonar
menu-move = Elige tu jugada
menu-piece = Elige qué pieza mover
menu-piece-moves = { $count ->
    [one] una jugada
   *[other] { $count } jugadas
}
menu-captures = come { $pieces }{ $kings ->
    [0] {""}
    [one] {" "}(1 dama)
   *[other] {" "}({ $kings } damas)
}
err-no-game = No hay ninguna partida en este canal. Empieza una con /desafiar o /jugar.
err-not-your-game = No juegas en esta partida.
err-position-changed = La posición cambió antes de que llegara tu jugada; no se jugó nada. Mira el tablero nuevo y vuelve a intentarlo.
err-game-over = Esta partida ya ha terminado.
err-not-your-turn = No es tu turno.
legal-moves = Jugadas válidas: { $moves }
played = { $name } jugó { $move }.
bot-played = { $name } jugó { $move }.
bot-thinking = { $ahead ->
    [0] El bot está pensando…
    [one] El bot está pensando… (hay una partida por delante en la cola)
   *[other] El bot está pensando… (hay { $ahead } partidas por delante en la cola)
}
err-bot-failed = El bot no pudo mover; la partida queda como estaba.
resigned = { $name } abandonó.
bot-accepts-draw = El bot acepta las tablas.
bot-declines-draw = El bot rechaza las tablas y sigue jugando.
err-draw-already-offered = Ya has ofrecido tablas; espera la respuesta.
draw-accepted = { $name } aceptó las tablas.
draw-offered = { $name } ofrece tablas. Responde con los botones, o con /tablas respuesta:aceptar o /tablas respuesta:rechazar.
draw-declined = { $name } rechazó las tablas.
err-no-draw-offer = No hay ninguna oferta de tablas que responder.
err-undo-people = Deshacer solo vale en partidas contra el bot.
err-bot-thinking = Espera primero la jugada del bot.
err-nothing-to-undo = No hay ninguna jugada tuya que deshacer.
undone = Se deshicieron tu última jugada y la respuesta del bot. Esta partida ya no puntúa.
explain-last = Última jugada: { $move }
err-no-move-yet = Todavía no se ha jugado nada. Pregunta por una jugada con /explicar jugada:11-15.
explain-title = ¿Por qué?
err-stale = Ese tablero está desactualizado: usa el último tablero del canal (o /tablero).
err-stale-over = Esa partida ya ha terminado.
choose-destination = Elige adónde va:
forced-capture = Era la única captura permitida.
forced-capture-quantity = Era la única captura permitida: ninguna otra comía tantas piezas ({ $best }).
forced-capture-quality = Era la única captura permitida: entre las capturas que comían { $best ->
    [one] una pieza
   *[other] { WORDS($best) } piezas
}, ninguna otra comía tantas damas ({ $kings }).
err-challenge-self = No puedes desafiarte a ti mismo.
err-challenge-bot = No puedes desafiar a una cuenta de bot. Para jugar contra mí, usa /jugar.
err-challenge-open = Ya hay un desafío abierto en este canal.
challenge-title = ¡Un desafío!
challenge-posted = { $challenger } desafía a { $opponent } a una partida de { $variant }. { $opponent }, ¿aceptas? (Caduca en { $minutes ->
    [one] un minuto
   *[other] { $minutes } minutos
}.)
button-accept = Aceptar
button-decline = Rechazar
err-challenge-gone = Ese desafío ya no está abierto.
challenge-declined = { $name } rechazó el desafío.
challenge-withdrawn = { $name } retiró el desafío.
err-not-your-challenge = Este desafío no es para ti.
err-challenge-expired = Ese desafío ya ha caducado.
challenge-expired-notice = El desafío de { $challenger } a { $opponent } caducó sin respuesta.
lost-on-time = A { $name } se le acabó el tiempo para mover.
reminder = Te toca mover: { $count ->
    [one] queda
   *[other] quedan
} { $count } { $unit ->
    [days] { $count ->
        [one] día
       *[other] días
    }
    [hours] { $count ->
        [one] hora
       *[other] horas
    }
    [minutes] { $count ->
        [one] minuto
       *[other] minutos
    }
   *[seconds] { $count ->
        [one] segundo
       *[other] segundos
    }
} antes de perder por tiempo.
err-channel-busy = Ya hay una partida en este canal. Termínala primero, o juega en otro canal o hilo.
game-started = ¡Empieza la partida!
help-title = Cómo jugar
help-footer = Las casillas van numeradas del 1 al 32, como en la imagen. Bajo el tablero: botones y un menú con tus jugadas.
rules-spanish = Cada jugador tiene 12 piezas, en las 32 casillas de un color de un tablero de 8×8; empiezan las { $first }. Tradicionalmente se juega en las casillas claras de un tablero bien colocado; la imagen del bot usa las oscuras con la misma geometría, y la gran diagonal, 1-5-10-14-19-23-28-32, une las esquinas derechas de ambos jugadores.
    • El peón se mueve una casilla en diagonal hacia adelante. Come solo hacia adelante: salta una pieza contraria contigua y cae en la casilla libre de detrás.
    • El peón que termina su jugada en la última fila corona: pasa a ser dama. La dama se mueve cualquier número de casillas libres en diagonal, hacia adelante o hacia atrás, y come a distancia, cayendo en cualquier casilla libre detrás de la pieza comida.
    • Comer es obligatorio. Ley de la cantidad: hay que comer el mayor número de piezas. Ley de la calidad: entre las capturas del mismo número de piezas, hay que comer el mayor número de damas. Entre las capturas que quedan, se elige libremente. No se sopla: no comer nunca se castiga quitando una pieza; mientras haya una captura, no se puede hacer una jugada que no coma.
    • La pieza sigue comiendo mientras pueda; las piezas comidas se retiran al terminar la jugada y no se pueden saltar dos veces. El peón que corona comiendo termina ahí su jugada.
    • Pierde quien, en su turno, no tiene piezas o no puede mover. Tablas: de común acuerdo; la misma posición por tercera vez, con el turno para el mismo jugador; { $moves } jugadas de cada jugador en las que solo se mueven damas y no se come; y tres damas contra una dama sola, con una de las tres en la gran diagonal, que no ganan en { $three_kings } jugadas.
rules-portuguese = Igual que en las damas españolas: damas voladoras, el peón come solo hacia adelante, leyes de la cantidad y de la calidad, no se sopla. Empiezan las { $first }.
    • Tablas: de común acuerdo; la misma posición por tercera vez, con el turno para el mismo jugador; { $moves } jugadas de cada jugador sin comer. No hay límite de tres damas contra una.
rules-english = Tablero de 8×8, con 12 piezas cada jugador en las casillas oscuras; empiezan las { $first }.
    • El peón se mueve una casilla en diagonal hacia adelante. Para comer salta una pieza contraria contigua y cae en la casilla libre de detrás: el peón solo hacia adelante, la dama hacia adelante y hacia atrás.
    • El peón que termina su jugada en la última fila corona: pasa a ser dama. La dama también se mueve una sola casilla cada vez, en las cuatro direcciones.
    • Comer es obligatorio, pero se elige cualquier captura, aunque coma menos; una vez empezada, hay que completarla. No se sopla. El peón que corona comiendo termina ahí su jugada.
    • Pierde quien, en su turno, no tiene piezas o no puede mover. Tablas: de común acuerdo; la misma posición por tercera vez, con el turno para el mismo jugador; { $moves } jugadas de cada jugador sin comer ni mover un peón.
stats-none = { $name } todavía no ha jugado.
stats-title = Historial de { $name }:
stats-people = { $variant } contra otros jugadores: { $wins ->
    [one] 1 ganada
   *[other] { $wins } ganadas
} · { $losses ->
    [one] 1 perdida
   *[other] { $losses } perdidas
} · { $draws } tablas — Elo { $rating }
stats-bot = { $variant } contra el bot ({ $level }): { $wins ->
    [one] 1 ganada
   *[other] { $wins } ganadas
} · { $losses ->
    [one] 1 perdida
   *[other] { $losses } perdidas
} · { $draws } tablas — mejor puntuación { $best }
err-guild-only = Las clasificaciones son por servidor; usa este comando en un servidor.
leaderboard-title = Clasificación — { $variant } (Elo)
leaderboard-bot-title = Clasificación — { $variant } contra el bot ({ $level })
leaderboard-empty = Todavía no hay partidas puntuadas.
leaderboard-line = { $rank }. { $name } — { $score } ({ $games ->
    [one] 1 partida
   *[other] { $games } partidas
})
pdn-attached = La partida en PDN:
err-cancel-permission = Solo quien puede gestionar mensajes puede cancelar una partida.
cancelled = { $name } canceló la partida de este canal; no cuenta para ninguno de los dos.

# Comandos: cmd-<nombre> es el nombre (minúsculas, sin espacios), cmd-<nombre>-desc su
# descripción (hasta 100 caracteres). Opciones: opt-<nombre>; valores: choice-<opción>-<valor>.
cmd-challenge = desafiar
cmd-challenge-desc = Desafía a alguien a una partida de damas
cmd-play = jugar
cmd-play-desc = Juega contra el bot (fácil, medio, difícil o experto)
cmd-move = mover
cmd-move-desc = Haz una jugada, por ejemplo 11-15 o 22x15 (o usa el menú bajo el tablero)
cmd-board = tablero
cmd-board-desc = Muestra otra vez el tablero
cmd-resign = abandonar
cmd-resign-desc = Abandona la partida
cmd-draw = tablas
cmd-draw-desc = Ofrece tablas, o acepta o rechaza las ofrecidas
cmd-undo = deshacer
cmd-undo-desc = Deshaz tu última jugada (contra el bot; la partida deja de puntuar)
cmd-explain = explicar
cmd-explain-desc = Por qué la última jugada (u otra) vale o no vale
cmd-rules = reglas
cmd-rules-desc = Las reglas de una variante
cmd-stats = estadísticas
cmd-stats-desc = El historial de alguien
cmd-leaderboard = clasificación
cmd-leaderboard-desc = Los mejores jugadores de este servidor
cmd-pdn = pdn
cmd-pdn-desc = La partida en un archivo PDN
cmd-help = ayuda
cmd-help-desc = Cómo jugar
cmd-cancel = cancelar
cmd-cancel-desc = Los moderadores terminan una partida atascada en este canal (Gestionar mensajes)
opt-opponent = rival
opt-opponent-desc = A quién desafías
opt-variant = variante
opt-variant-desc = Variante: españolas (por defecto), portuguesas o inglesas
opt-colour = color
opt-colour-desc = Tu color (al azar si no lo eliges)
opt-level = nivel
opt-level-desc = La fuerza del bot (medio por defecto)
opt-move = jugada
opt-move-desc = La jugada: casillas de salida y de llegada
opt-explain-move-desc = Una jugada para juzgar en la posición actual
opt-user = usuario
opt-user-desc = De quién es el historial (por defecto, el tuyo)
opt-answer = respuesta
opt-answer-desc = Acepta o rechaza las tablas ofrecidas (sin ella: ofrece tablas, o acepta las ofrecidas)
choice-variant-spanish = Españolas
choice-variant-portuguese = Portuguesas
choice-variant-english = Inglesas
choice-level-easy = Fácil
choice-level-medium = Medio
choice-level-hard = Difícil
choice-level-expert = Experto
choice-colour-white = Blancas
choice-colour-black = Negras
choice-answer-accept = Aceptar
choice-answer-decline = Rechazar

# Las líneas propias de la consola.
console-greeting = damas — consola. Escribe /ayuda para ver los comandos, /jugar para jugar contra el bot, o «ana: /desafiar beto» para dos personas (y luego «beto: /aceptar» o «beto: /rechazar»). Los tableros se guardan en { $folder }
console-default-name = jugador
console-only-you = (solo lo ve { $name })
console-board-saved = [tablero: { $path }]
console-board-not-saved = [tablero no guardado: { $error }]
console-file-saved = [archivo: { $path }]
console-file-not-saved = [archivo no guardado: { $error }]
console-unknown-command = No conozco el comando «{ $command }». Escribe /ayuda.
console-usage = Uso: { $usage }
console-unknown-option = /{ $command } no tiene la opción «{ $option }». Uso: { $usage }
console-bad-choice = «{ $value }» no es un valor de { $option }: usa { $choices }.
console-bad-number = «{ $value }» no es un número entero del { $min } al { $max } para { $option }.
console-extra-words = Sobran palabras: «{ $value }». Uso: { $usage }
erase-confirm = Esto borra tus datos del bot: tu nombre y tu id se cambian por «jugador eliminado» en todas las partidas terminadas, y se eliminan tu historial, tu Elo, tus puntuaciones y tus puestos en las clasificaciones. No se puede deshacer. ¿Borrar?
button-forget = Bórrame
button-keep = Conservar mis datos
erase-kept = No se borró nada.
erase-done = Hecho: tu nombre y tu id ya no están en ninguna partida ni clasificación, y tu historial quedó borrado.
err-forget-while-playing = Termina o abandona primero la partida que estás jugando y vuelve a pedirlo.
err-not-yours = Estos botones no son para ti.
cmd-forget-me = olvidarme
cmd-forget-me-desc = Borra tu nombre, tu historial y tus puestos en las clasificaciones
opt-days = días
opt-days-desc = Días que tiene cada jugador para mover (de 1 a 14; 3 si no se indica)

## threads and rematch
opt-thread = hilo
opt-thread-desc = Jugar en un hilo nuevo de este canal (sí donde el bot puede abrir hilos)
choice-thread-yes = Sí
choice-thread-no = No
thread-name = { $white } contra { $black } · { $variant }
thread-line = { $name } — se juega en el hilo
thread-line-over = { $name } — { $result }
thread-line-cancelled = { $name } — cancelada, no cuenta para ninguno de los dos
thread-unavailable = No puedo abrir hilos en este canal (me falta el permiso Crear hilos públicos), así que la partida se juega aquí.
thread-failed = Discord no me dejó abrir un hilo aquí, así que la partida se juega en este canal.
button-rematch = Revancha
err-rematch-stale = Ese botón de revancha está desactualizado: ya ha empezado otra partida, o los jugadores ya han vuelto a jugar.
err-rematch-not-yours = Solo los dos jugadores de esa partida pueden pedir la revancha.

## ballot (three-move openings for English draughts)
opt-opening = apertura
opt-opening-desc = Solo damas inglesas: libre, o tres jugadas sorteadas como en los torneos
choice-opening-free = Libre
choice-opening-ballot = Sorteo de tres jugadas
ballot-drawn = Sorteo de tres jugadas: { $moves }
err-ballot-variant = El sorteo de tres jugadas solo se juega en damas inglesas, no en { $variant }. Elige damas inglesas, o no indiques la apertura.
err-ballot-deck = Ahora no se pueden leer las aperturas del sorteo; desafía con apertura libre.

## puzzles
cmd-puzzle = problema
cmd-puzzle-desc = Un golpe que resolver, en privado: el problema del día o uno al azar
opt-pick = tipo
opt-pick-desc = El problema del día (el mismo para todo el servidor) o uno al azar
choice-pick-today = Hoy
choice-pick-random = Aleatorio
opt-type = categoría
opt-type-desc = Partidas (por defecto) o problemas resueltos
choice-type-games = Partidas
choice-type-puzzles = Problemas
puzzle-title = Problema n.º { $id } — { $variant }
# $goal: game cuando la solución gana la partida, material cuando gana piezas.
puzzle-caption = Juegan las { $side } y { $goal ->
    [game] ganan
   *[material] ganan material
}
puzzle-daily = El problema del día: juegan las { $side } y { $goal ->
    [game] ganan
   *[material] ganan material
} (dificultad { $difficulty } de 5).
puzzle-random = Un problema: juegan las { $side } y { $goal ->
    [game] ganan
   *[material] ganan material
} (dificultad { $difficulty } de 5).
puzzle-how = Encuentra la jugada ganadora y juégala con /mover o el menú; el bot juega la defensa. Solo tú ves este problema.
puzzle-defence = la defensa
puzzle-none = No hay problemas para esta variante.
puzzle-no-session = No tienes ningún problema en curso: empieza uno con /problema.
puzzle-retired = El problema n.º { $id } se ha retirado: al revisarlo se vio que ya no tiene una única solución. Empieza otro con /problema.
puzzle-wrong = { $move } no es la solución. Vuelve a mirar: el problema sigue esperándote (este intento cuenta como fallido).
puzzle-right = ¡{ $move } es correcta! La defensa responde { $reply }. Te toca.
puzzle-right-go-on = ¡{ $move } es correcta! Sigue.
puzzle-solved = { $move }: ¡resuelto!
puzzle-solved-late = { $move }: resuelto, pero tras una jugada equivocada; tu puntuación ya contó el intento fallido ({ $rating }).
puzzle-standing = Elo de problemas { $rating } · racha { $streak } (mejor { $best })
puzzle-leaderboard-title = Clasificación — problemas
puzzle-leaderboard-empty = Aquí nadie ha terminado todavía un problema.
puzzle-leaderboard-line = { $rank }. { $name } — { $rating } ({ $solved ->
    [one] 1 resuelto
   *[other] { $solved } resueltos
}, mejor racha { $streak })

## review
cmd-review = analizar
cmd-review-desc = Analiza una partida: precisión, errores y las mejores jugadas
opt-game = partida
opt-game-desc = El número de una partida; si falta, la partida del canal
review-progress = Analizando { $bar } { $done }/{ $total }
review-title = Análisis: { $players }
review-player = { $name } ({ $colour }): precisión { $accuracy }% · { $inaccuracies ->
        [one] 1 imprecisión
       *[other] { $inaccuracies } imprecisiones
    } · { $mistakes ->
        [one] 1 error
       *[other] { $mistakes } errores
    } · { $blunders ->
        [one] 1 error grave
       *[other] { $blunders } errores graves
    } · { $missed ->
        [one] 1 golpe no visto
       *[other] { $missed } golpes no vistos
    }
review-swing = mayor vuelco: { $number } { $move }
review-no-errors = Ninguna imprecisión, error ni error grave: bien jugado.
review-errors = { $count ->
        [one] Una jugada para revisar: pulsa el botón.
       *[other] { $count } jugadas para revisar: pulsa el botón para recorrerlas.
    }
review-page-title = Jugada para revisar
review-page-move = { $number } { $move } ({ $colour }): { $class }
review-eval = Antes de la jugada: { $before }. Después: { $after }.
# La evaluación en cifras, una vez: en peones, desde el lado de las blancas (+ cuando van mejor).
review-eval-score = Evaluación en peones, desde las blancas: { $before } → { $after }.
review-page-better = Mejor: { $move } (línea { $line })
review-verdict = { $verdict ->
    [drawn] tablas (bases de finales)
   *[other] ganan las { $side } (bases de finales)
}
review-page-refutation = Tras { $move }: { $line }
review-missed-shot = golpe no visto
review-allowed-shot = permite un golpe
review-class-only-move = jugada única
review-class-best = mejor jugada
review-class-good = buena jugada
review-class-inaccuracy = imprecisión
review-class-mistake = error
review-class-blunder = error grave
button-review-first = Ver las jugadas ▶
button-review-prev = ◀ Anterior
button-review-next = Siguiente ▶
err-review-no-moves = Esa partida aún no tiene jugadas que analizar.
err-review-failed = No se pudo hacer el análisis; inténtalo más tarde.
err-restarting = El bot se está reiniciando: vuelve a intentarlo en un momento.
err-review-unknown-game = No hay ninguna partida «{ $id }» que puedas analizar aquí.
err-review-expired = Este análisis ya no se guarda: vuelve a usar /analizar.
replay-start = Posición inicial
replay-status = { $number } { $move }
pdn-replay-attached = La partida en un archivo PDN y en animación.

## titles
player-title-expert = Experto
player-title-pro = Pro
player-title-earned = 🏅 { $name } gana el título { $title } en { $variant }: { $score ->
    [one] 1 punto
   *[other] { $score } puntos
} contra el bot en el nivel { $level }.
stats-player-title = { $variant }: { $title } (mejor puntuación { $best } contra el bot en el nivel { $level })
name-with-player-title = { $name } · { $title }

## last move in the board caption
caption-last-move = Última jugada { $move } ({ $name })
caption-no-progress = { $left ->
    [one] tablas en 1 jugada
   *[other] tablas en { $left } jugadas
}
caption-three-kings = 3 damas: { $left ->
    [one] 1 jugada
   *[other] { $left } jugadas
} para ganar

# Registros de partidas jugadas en otra parte (archivos PDN).
pdn-refused = Partida { $number }: { $reason }
pdn-err-game-type = su GameType es { $found }, no { $expected } ({ $variant }).
pdn-err-fen = su etiqueta FEN no se puede leer ({ $why }).
pdn-err-set-up = anuncia una posición preparada (SetUp "1") pero no tiene etiqueta FEN.
pdn-err-move = jugada { $number } { $move }: { $reason }
pdn-err-over = la partida ya había terminado.
pdn-err-unclosed-comment = un comentario abierto con una llave no se cierra nunca.
pdn-err-unclosed-variation = una variante abierta con un paréntesis no se cierra nunca.
record-result-win = Ganaron las { $winner }, según el registro.
record-result-draw = Tablas, según el registro.
record-result-unfinished = El registro no da resultado.
record-unclaimed-draw = Aquí el bot habría declarado tablas tras { $number } { $move } ({ $rule }); los jugadores siguieron.
draw-rule-agreement = de común acuerdo
draw-rule-repetition = la misma posición por tercera vez
draw-rule-no-progress = el límite de jugadas sin progreso
draw-rule-three-kings = tres damas contra una durante 13 jugadas
pdn-err-unknown-game-type = su GameType es { $found }, un juego que el bot no juega (21 inglesas, 24 españolas, 28 portuguesas).
record-unknown-player = jugador desconocido
opt-file = archivo
opt-file-desc = Un archivo PDN de una partida jugada en cualquier parte, para analizarla
opt-number = número
opt-number-desc = Qué partida del archivo (1 para la primera)
opt-file-variant-desc = La variante del archivo, si su etiqueta GameType no la dice (si no, españolas)
review-file-game = Partida { $number } de { $file }
button-review-gif = Animación (GIF)
review-gif-attached = La partida en animación.
err-review-gif-failed = No se pudo dibujar la animación; inténtalo más tarde.
err-review-file-and-game = Da el número de una partida o un archivo, no los dos.
err-review-file-too-big = Ese archivo es demasiado grande: un archivo PDN puede tener como mucho { $limit } KB.
err-review-file-not-pdn = Ese archivo no es un registro de partidas PDN: no se pudo leer ninguna partida en él.
err-review-file-not-allowed = Ese archivo no viene de los adjuntos de Discord, así que no se descargó.
err-review-file-slow = Descargar ese archivo tardó demasiado; inténtalo de nuevo.
err-review-file-unreachable = No se pudo descargar ese archivo; inténtalo de nuevo.
err-review-file-number = Ese archivo tiene { $count ->
    [one] una partida
   *[other] { $count } partidas
}: no hay partida { $number }.
err-review-file-game-refused = Esa partida no se puede leer. { $reason }
err-review-file-too-long = Esa partida tiene { $plies ->
    [one] una jugada
   *[other] { $plies } jugadas
}; los análisis llegan hasta { $limit }.
caption-turn = juegan las { $color }

## the evaluation of a reviewed game, from White's side: + when White is better
eval-even = igualdad
eval-better = ventaja de las { $side }
eval-winning = ganan las { $side }
eval-win = ganan las { $side } en { $moves ->
    [one] una jugada
   *[other] { $moves } jugadas
}
eval-won = han ganado las { $side }
eval-proven-win = ganan las { $side } (lo demuestran las bases de finales)
review-chart-side = Ventaja de las { $side }

## board pictures in words (the picture's description, /tablero texto, --text-boards)
opt-text = texto
opt-text-desc = Sí: el tablero en palabras, para lectores de pantalla (solo lo ves tú)
choice-text-yes = Sí
choice-text-no = No
alt-turn = Juegan las { $color } ({ $name }).
alt-turn-before = La posición antes de la jugada, con turno de las { $color } ({ $name }).
alt-last-move = Última jugada: { $move }, de las { $color } ({ $name }).
# Lo que se ve de la última jugada: las piezas comidas ($squares, en lista) y si el peón corona.
alt-last-move-takes = { $count ->
    [one] Come la pieza de la casilla { $squares }
   *[other] Come las piezas de las casillas { $squares }
}{ $crowned ->
    [yes] {" "}y el peón corona.
   *[no] .
}
alt-last-move-crowns = El peón corona.
alt-explained-move = La jugada explicada: { $move }.
alt-puzzle-solved = Problema resuelto.
alt-side = { $color }: { $men ->
    [0] sin peones
    [one] peón { $men_squares }
   *[other] peones { $men_squares }
}; { $kings ->
    [0] sin damas
    [one] dama { $king_squares }
   *[other] damas { $king_squares }
}.
alt-captures = Hay que comer: { $moves }.
alt-more = { $moves } u { $count ->
    [one] otra
   *[other] otras { $count }
}
# Una serie de casillas seguidas: «peones 1 a 12».
alt-range = { $first } a { $last }
alt-reach = La pieza de la casilla { $from } puede ir a { $squares }.
alt-arrows = Flechas de las capturas, cada una con una marca de las piezas que come: { $captures }.
alt-arrow = { $move } ({ $pieces ->
    [one] una pieza
   *[other] { WORDS($pieces) } piezas
}{ $kings ->
    [0] {""}
    [one] {", "}una dama
   *[other] {", "}{ WORDS($kings) } damas
}; { $status })
alt-review-arrows = Flechas: la jugada hecha, { $played }, y la mejor, { $better }.
alt-chart = Gráfico de la evaluación tras cada jugada. Por encima de la línea central, ventaja de las blancas; por debajo, ventaja de las negras. Al final, { $end }.
alt-chart-marks = { $count ->
    [one] Un punto marca la jugada para revisar: { $marks }.
   *[other] Unos puntos marcan las jugadas para revisar: { $marks }.
}
alt-chart-mark = { $class } en { $move }
# La clasificación en palabras: cada jugador con su puesto, puntos, desempates y rondas.
alt-standings = { $title }. { $count ->
    [one] Un jugador
   *[other] { $count } jugadores
}, por puestos: { $players }.
alt-standings-line = { $rank }. { $name }, { $points ->
    [one] 1 punto
   *[other] { $points } puntos
}
alt-standings-rounds = rondas { $rounds }
alt-standings-legend = En las rondas, + ganó, = tablas, − perdió, · en juego, y luego el puesto del rival y b (con blancas), n (con negras) o F (sin jugar).
alt-replay = Animación de la partida, jugada a jugada, desde la posición inicial hasta la final, que se describe a continuación.
err-bot-busy = El bot está ocupado ahora mismo: vuelve a intentarlo en un minuto.
err-too-many-bot-games = Ya tienes { $limit ->
    [one] una partida
   *[other] { $limit } partidas
} en curso contra el bot: termina o abandona una primero.
err-too-many-challenges = Ya tienes { $limit ->
    [one] un desafío abierto
   *[other] { $limit } desafíos abiertos
}: espera a que te respondan o retira antes alguno.
err-review-already-asking = Ya tienes un análisis en marcha: espera a que termine.
err-review-under-way = La partida #{ $id } aún se está jugando: juzgar sus jugadas ahora le diría a un jugador qué jugar. Podrás analizarla en cuanto termine, con /analizar partida:{ $id }.
err-forget-unsure = Puede que el borrado se haya guardado o no: vuelve a usar /olvidarme para asegurarte.

cmd-accept = aceptar
cmd-accept-desc = Acepta el desafío abierto aquí
cmd-decline = rechazar
cmd-decline-desc = Rechaza el desafío abierto aquí (o retira el tuyo)
cmd-moves = jugadas
cmd-moves-desc = Las jugadas legales, o las que empiezan por lo que escribas
opt-from = desde
opt-from-desc = El comienzo de una jugada, por ejemplo 11 o 22x
cmd-quit = salir
cmd-quit-desc = Sal de la consola
moves-none = Aquí no hay ninguna jugada legal que empiece así.

## torneos
cmd-tournament = torneo
cmd-tournament-desc = Torneos que organiza el bot: suizo o liga
cmd-tournament-create = crear
cmd-tournament-create-desc = Crea un torneo en este canal; los jugadores se apuntan hasta que lo empiezas
cmd-tournament-join = unirse
cmd-tournament-join-desc = Apúntate al torneo de este canal antes de que empiece
cmd-tournament-leave = salir
cmd-tournament-leave-desc = Deja el torneo de este canal (si ya empezó, pierdes las partidas que te quedan)
cmd-tournament-start = empezar
cmd-tournament-start-desc = Empieza el torneo y empareja la ronda 1 (su organizador, o Gestionar eventos)
cmd-tournament-standings = clasificación
cmd-tournament-standings-desc = La clasificación del torneo, con sus desempates
cmd-tournament-pairings = emparejamientos
cmd-tournament-pairings-desc = Quién juega contra quién en una ronda (la actual si no se indica)
cmd-tournament-withdraw = retirar
cmd-tournament-withdraw-desc = Retira a un jugador del torneo (su organizador, o Gestionar eventos)
cmd-tournament-cancel = cancelar
cmd-tournament-cancel-desc = Cancela el torneo; las partidas en curso siguen (su organizador, o Gestionar eventos)
opt-name = nombre
opt-name-desc = El nombre del torneo
opt-format = formato
opt-format-desc = Suizo (por defecto) o liga
opt-rounds = rondas
opt-rounds-desc = Rondas de un torneo suizo (5 si no se indica)
opt-round = ronda
opt-round-desc = La ronda (la actual si no se indica)
opt-tournament = torneo
opt-tournament-desc = El número del torneo (el último de este canal si no se indica)
opt-player = jugador
opt-player-desc = El jugador que se retira
choice-format-swiss = Suizo
choice-format-round-robin = Liga
tb-buchholz = Buchholz
tb-median-buchholz = Buchholz mediano
tb-sonneborn-berger = Sonneborn-Berger
tournament-col-rank = #
tournament-col-name = Jugador
tournament-col-points = Ptos
tournament-col-bye = libre
# La letra del color en las rondas de la clasificación: «+3b» ganó al tercero con blancas.
tournament-letter-white = b
tournament-letter-black = n
tb-buchholz-short = BH
tb-median-buchholz-short = BHM
tb-sonneborn-berger-short = SB
tb-direct-encounter-short = ED
tb-direct-encounter = enfrentamiento directo
tournament-format-swiss = suizo a { $rounds ->
    [one] una ronda
   *[other] { $rounds } rondas
}
tournament-format-round-robin = liga
tournament-created = { $organiser } creó el torneo «{ $name }» (número { $id }), { $format }, { $variant }, { $days ->
    [one] un día
   *[other] { $days } días
} por jugada. Apúntate con /torneo unirse.
tournament-joined = { $name } se apuntó a «{ $tournament }» ({ $count ->
    [one] un jugador
   *[other] { $count } jugadores
} por ahora).
tournament-left = { $name } dejó «{ $tournament }».
tournament-withdrawn = Se retiró a { $name } de «{ $tournament }»: sus partidas en juego cuentan como perdidas, y ya no entra en los emparejamientos de las rondas siguientes.
tournament-cancelled = { $name } canceló el torneo «{ $tournament }». Las partidas en curso siguen como partidas normales.
tournament-standings-title = { $round ->
    [0] «{ $tournament }» antes de la ronda 1
   *[other] «{ $tournament }» tras la ronda { $round }
}
tournament-round-title = «{ $tournament }», ronda { $round }
tournament-final-title = «{ $tournament }», clasificación final
tournament-winner = { $count ->
    [one] Gana { $names }.
   *[other] Comparten el primer puesto { $names }.
}
tournament-standing-line = { $rank }. { $name } — { $points } { $unit ->
    [one] punto
   *[other] puntos
} ({ $tiebreaks })
tournament-pairing-line = Tablero { $board }. { $white } (blancas) contra { $black } (negras) — { $result }
tournament-bye-line = Tablero { $board }. { $name } descansa (cuenta como victoria)
tournament-in-play = en juego
tournament-no-players = Todavía no se ha apuntado nadie.
tournament-thread = { $tournament } · ronda { $round } · { $white } contra { $black }
err-no-tournament = No hay ningún torneo en este canal. Crea uno con /torneo crear.
err-tournament-unknown = No hay ningún torneo con el número { $id } en este servidor.
err-tournament-server-only = Los torneos se juegan en los canales de un servidor, no en mensajes directos.
err-tournament-name = Un torneo necesita un nombre de 1 a { $limit } caracteres.
err-ballot-english-only = El sorteo de tres jugadas solo se juega en damas inglesas. Elige damas inglesas, o no indiques la apertura.
err-tournament-channel-busy = Este canal ya tiene en marcha «{ $name }» (número { $id }). Crea el nuevo en otro canal.
err-tournament-started = Ese torneo ya ha empezado, así que las inscripciones ya no cambian.
err-tournament-joined-already = Ya te has apuntado a este torneo.
err-tournament-not-entered = No estás en este torneo.
err-tournament-player-not-entered = { $name } no está en este torneo.
err-tournament-organiser-only = Solo el organizador del torneo, o quien tenga Gestionar eventos o Gestionar mensajes, puede hacerlo.
err-tournament-too-few = Un torneo necesita al menos 3 jugadores para empezar; tiene { $count ->
    [one] uno
   *[other] { $count }
}.
err-tournament-pairing = No se pudo emparejar la primera ronda. No ha cambiado nada.
err-tournament-not-started = El torneo todavía no ha empezado, así que no hay emparejamientos.
err-tournament-no-round = Todavía no hay ronda { $round }; { $rounds ->
    [one] se ha emparejado una ronda
   *[other] se han emparejado { $rounds } rondas
}.
err-tournament-not-running = Ese torneo no está en marcha.
err-tournament-withdrawn-already = Ese jugador ya fue retirado.
cmd-tournament-pdn = pdn
cmd-tournament-pdn-desc = Todas las partidas del torneo en un archivo PDN
tournament-pdn-attached = Las partidas de «{ $tournament }» ({ $count ->
    [one] una partida
   *[other] { $count } partidas
}) en un archivo PDN.
err-tournament-no-games = Todavía no ha empezado ninguna partida de este torneo.
opt-start = inicio
opt-start-desc = Empieza automáticamente a una hora UTC (2026-12-05 18:00) o en un plazo (en 2h); si no, al empezarlo
tournament-starts-at = Empieza automáticamente el { $when }, o antes si su organizador lo empieza.
tournament-scheduled-too-few = «{ $tournament }» debía empezar el { $when }, pero solo se { $count ->
    [one] había apuntado un jugador
   *[other] habían apuntado { $count } jugadores
}; necesita al menos 3, así que se cancela.
err-tournament-start-unreadable = No entiendo «{ $text }» como hora de inicio. Escribe una fecha y hora UTC como 2026-12-05 18:00, o un plazo desde ahora como en 2h, en 90m o en 3d.
err-tournament-start-past = Esa hora de inicio ya pasó (las horas son UTC; ahora son las { $now }). Indica una posterior, o deja el inicio en blanco y usa /torneo empezar.
err-tournament-start-far = Un torneo puede programarse como mucho con { $days ->
    [one] un día
   *[other] { $days } días
} de antelación.

## lo que dice el bot es lo que hace
err-tournament-running-already = El torneo ya ha empezado (ronda { $round }).
tournament-standings-title-playing = «{ $tournament }», ronda { $round } en juego
tournament-name-withdrawn = { $name } (se retiró)
tournament-col-withdrawn = (se retiró)
puzzle-solved-other = ¡{ $move } también gana: resuelto! La línea principal era { $line }.
puzzle-solved-other-late = { $move } también gana: resuelto, pero tras una jugada equivocada; tu puntuación ya contó el intento fallido ({ $rating }). La línea principal era { $line }.
console-unclosed-quote = Hay unas comillas sin cerrar: añade las de cierre.
# Las líneas de `damas review`: una por jugada, luego una por bando.
review-line-mover = { $colour ->
    [white] B
   *[black] N
}
review-line-class = { $class ->
    [only-move] única
    [best] mejor
    [good] buena
    [inaccuracy] imprecisión
    [mistake] error
   *[blunder] error grave
}
review-line-better = mejor { $move }
review-line-missed-shot = golpe no visto: { $line }
review-line-allowed-shot = permite un golpe: { $line }
review-line-player = { $colour }: precisión { $accuracy } %, imprecisiones { $inaccuracies }, errores { $mistakes }, errores graves { $blunders }, golpes no vistos { $missed }
review-line-swing = mayor vuelco en la media jugada { $ply }

## Play anywhere: private conversations, and the menu on a member
err-needs-server = Este comando necesita un servidor: úsalo en un canal de un servidor. Las partidas, los problemas y los análisis también funcionan aquí.
# The command in the menu of a member (right-click, Apps).
menu-challenge = Desafiar a damas

## privacy: /my-data, and what /help says of the bot's data
cmd-my-data = mis-datos
cmd-my-data-desc = Recibe un archivo con todo lo que el bot guarda sobre ti (solo lo ves tú)
my-data-title = Tus datos
my-data-attached = Aquí tienes todo lo que el bot guarda sobre ti: tu historial y tu Elo, tus partidas ({ $games ->
    [one] una partida
   *[other] { $games } partidas
}) con sus jugadas, tus problemas, tus torneos y tus desafíos pendientes. De los demás jugadores solo aparece lo que forma parte de tus partidas. Con /olvidarme se borra todo.
my-data-left-out = El archivo era demasiado grande para enviarlo entero, así que no incluye { $count ->
    [one] tu partida terminada más antigua
   *[other] tus { $count } partidas terminadas más antiguas
}.
help-privacy = Tus datos: /mis-datos te envía todo lo que el bot guarda sobre ti, y /olvidarme lo borra.
help-privacy-link = Tus datos: qué guarda el bot, para qué y durante cuánto tiempo se explica en { $url }. /mis-datos te envía todo, y /olvidarme lo borra.

## server settings (/settings) and who may use what
cmd-settings = ajustes
cmd-settings-desc = Mira o cambia cómo juega el bot en este servidor (Gestionar servidor)
opt-settings-variant-desc = La variante de las partidas y torneos nuevos cuando no se indica
opt-settings-days-desc = Días por jugada de desafíos y torneos cuando no se indican (de 1 a 14)
opt-settings-thread-desc = Si las partidas nuevas se abren en un hilo propio cuando el comando no lo dice
opt-add-channel = añadir-canal
opt-add-channel-desc = Un canal donde pueden empezar partidas y torneos (si no hay ninguno: todos)
opt-remove-channel = quitar-canal
opt-remove-channel-desc = Un canal donde ya no pueden empezar partidas ni torneos
opt-role = rol
opt-role-desc = Un rol cuyos miembros pueden organizar torneos y cancelar partidas
opt-language = idioma
opt-language-desc = El idioma de los mensajes públicos del bot en este servidor
opt-reset = restablecer
opt-reset-desc = Devuelve un ajuste al valor por defecto del bot
choice-language-es = Español
choice-language-en = Inglés
choice-setting-variant = Variante
choice-setting-days = Días por jugada
choice-setting-thread = Hilos
choice-setting-channels = Canales de juego
choice-setting-role = Rol de organización
choice-setting-language = Idioma
choice-setting-all = Todo
settings-title = Ajustes de este servidor
settings-variant = Variante: { $shown }
settings-days = Tiempo por jugada en desafíos y torneos: { $shown }
settings-thread = Partidas nuevas en un hilo propio: { $shown }
settings-channels = Las partidas y torneos empiezan en: { $shown }
settings-role = Rol de organización: { $shown }
settings-language = Mensajes públicos en: { $shown }
settings-default = { $shown } (valor por defecto)
settings-yes = sí
settings-no = no
settings-all-channels = cualquier canal
settings-no-role = ninguno (organiza quien puede gestionar eventos)
settings-own-language = el idioma de cada miembro
settings-changed = lo cambió { $who } el { $when }
settings-changed-forgotten = cambiado el { $when } por un miembro que después borró sus datos
settings-time = { $count } { $unit ->
    [days] { $count ->
        [one] día
       *[other] días
    }
    [hours] { $count ->
        [one] hora
       *[other] horas
    }
    [minutes] { $count ->
        [one] minuto
       *[other] minutos
    }
   *[seconds] { $count ->
        [one] segundo
       *[other] segundos
    }
}
settings-role-note = Discord solo muestra /cancel a quien puede gestionar mensajes: para que { $role } también lo vea, permite ese rol en el comando en Ajustes del servidor → Integraciones → damas.
err-settings-server-only = Los ajustes son de un servidor: usa /ajustes en uno.
err-settings-permission = Solo quien puede gestionar el servidor puede cambiar sus ajustes.
err-settings-channel-both = Ese canal no se puede añadir y quitar a la vez: indícalo en solo una de las dos opciones.
err-settings-too-many-channels = Un servidor puede tener como mucho { $limit } canales de juego: quita uno antes.
err-start-channel = En este servidor, las partidas y los torneos empiezan en { $channels }.
err-tournament-create-role = En este servidor crean torneos los miembros de { $role } y quien puede gestionar eventos.
console-bad-id = «{ $value }» no es un identificador para { $option }: escribe su número.

## the board page: its button, its links and what the page says (issue 45)
button-board = Abrir el tablero
board-link-player = Tu propio tablero para esta partida, donde juegas con clics: <{ $url }>
    Solo tú puedes mover con este enlace, durante { $hours ->
        [one] una hora
       *[other] { $hours } horas
    }; el botón te da uno nuevo. No lo compartas: quien lo tenga mueve por ti.
board-link-spectator = Mira esta partida en directo: <{ $url }>
err-board-off = El tablero web no está configurado en este bot.
board-no-game = Todavía no se ha jugado ninguna partida en este canal.
board-spectator = Estás mirando: solo el enlace propio de cada jugador puede mover.
board-link-expired = Este enlace ha caducado, así que estás mirando. Pulsa «Abrir el tablero» en el mensaje de la partida para tener uno nuevo.
board-link-other = Este enlace es de otra partida, así que estás mirando esta.
board-link-bad = Este enlace no es válido, así que estás mirando.
board-your-turn = Te toca: elige una pieza y luego adónde va.
board-waiting = Esperando a que mueva { $name }.
board-clock = A { $name } { $count ->
    [one] le queda
   *[other] le quedan
} { $count } { $unit ->
    [days] { $count ->
        [one] día
       *[other] días
    }
    [hours] { $count ->
        [one] hora
       *[other] horas
    }
    [minutes] { $count ->
        [one] minuto
       *[other] minutos
    }
   *[seconds] { $count ->
        [one] segundo
       *[other] segundos
    }
} para mover.
board-page-title = Tablero de damas
board-keyboard-help = Con el teclado: las flechas mueven el marco, Intro elige la pieza que hay debajo y luego cada casilla adonde va, Escape vuelve a empezar. O escribe la jugada abajo.
board-type-move = Tu jugada, como 11-15 o 15x22
board-play = Jugar
board-choose-capture = Más de una captura pasa por ahí. ¿Cuál?
board-capture-choice = { $move }, que come { $squares }
board-connection-lost = Se perdió la conexión: reintentando…
board-too-fast = Demasiadas peticiones seguidas: espera un momento.
board-not-found = No existe ese tablero.

## activity
activity-launch-desc = Abre la partida de esta conversación en un tablero donde juegas con clics
activity-off = La Actividad de Discord no está configurada en este bot.
activity-outside-discord = Esta página es la Actividad de Discord de damas: ábrela en Discord, desde el lanzador de aplicaciones o con el botón «Abrir el tablero» de la partida.
activity-not-built = Este bot se compiló sin el script de la Actividad (ejecuta npm ci y npm run build en web/ y vuelve a compilar damas). La página del tablero sigue funcionando con el enlace de cada jugador.
activity-sign-in-refused = Discord no confirmó quién eres. Cierra la Actividad y vuelve a abrirla.
activity-discord-unreachable = No se pudo contactar con Discord para confirmar quién eres. Inténtalo de nuevo en un momento.
activity-sign-in-failed = No se pudo iniciar sesión a través de Discord. Cierra la Actividad y vuelve a abrirla.
board-resign-confirm = Pulsa otra vez para abandonar

## book
# The opening book (issue 46): the review names the moves it holds.
review-book = { $count ->
    [one] Una jugada salió del libro de aperturas
   *[other] { $count } jugadas salieron del libro de aperturas
}, hasta { $number } { $move }: las juegan los maestros, así que no cuentan como errores.
review-line-book = libro

## activity sign-in limit
# The Activity's sign-ins are limited (each asks Discord): the page shows this and the
# seconds to wait.
activity-sign-in-busy = { $seconds ->
    [one] Mucha gente está abriendo el tablero ahora mismo. Vuelve a intentarlo en un segundo.
   *[other] Mucha gente está abriendo el tablero ahora mismo. Vuelve a intentarlo en { $seconds } segundos.
}

## books grown from self-play
# The Spanish and Portuguese opening books are grown from Expert's own deep self-play (no
# master collection exists): the review names their moves with whose they are.
review-book-selfplay = { $count ->
    [one] Una jugada salió del libro de aperturas
   *[other] { $count } jugadas salieron del libro de aperturas
}, hasta { $number } { $move }: el bot en nivel experto las eligió pensando a fondo en partidas contra sí mismo, así que no cuentan como errores.
