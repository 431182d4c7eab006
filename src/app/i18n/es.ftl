# Textos en español. Cada id debe estar también en en.ftl (lo comprueba un test).

variant-spanish = damas españolas
variant-portuguese = damas portuguesas
variant-english = damas inglesas (checkers)
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
err-unreachable = La pieza de { $from } no puede llegar a { $to } en una jugada.
err-short-king = En las damas inglesas la dama se mueve de a una casilla.
err-capture-mandatory = Comer es obligatorio. Capturas posibles: { $moves }.
err-quantity = Ley de la cantidad: hay que comer el mayor número de piezas ({ $best }); esa jugada come { $yours ->
    [one] una
   *[other] { $yours }
}. Jugadas válidas: { $moves }.
err-quality = Ley de la calidad: a igual cantidad de piezas, hay que comer más damas ({ $best }); esa jugada come { $yours ->
    [0] ninguna
    [one] una
   *[other] { $yours }
}. Jugadas válidas: { $moves }.
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

law-no-capture = No había ninguna captura, así que valía cualquier jugada.
law-mandatory = Comer es obligatorio: había que jugar una captura.
law-quantity = Ley de la cantidad: solo valían las capturas que comen más piezas ({ $best }).
law-quality = Ley de la calidad: entre las capturas de { $best ->
    [one] una pieza
   *[other] { $best } piezas
}, solo valían las que comen más damas ({ $kings }).
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
err-game-over = Esta partida ya terminó.
err-not-your-turn = No es tu turno.
legal-moves = Jugadas válidas: { $moves }
played = { $name } jugó { $move }.
bot-played = { $name } jugó { $move }.
bot-thinking = { $ahead ->
    [0] El bot está pensando…
    [one] El bot está pensando… (tiene una búsqueda por delante)
   *[other] El bot está pensando… (tiene { $ahead } búsquedas por delante)
}
err-bot-failed = El bot no pudo mover; la partida queda como estaba.
resigned = { $name } abandonó.
bot-accepts-draw = El bot acepta las tablas.
bot-declines-draw = El bot rechaza las tablas y sigue jugando.
err-draw-already-offered = Ya ofreciste tablas; espera la respuesta.
draw-accepted = { $name } aceptó las tablas.
draw-offered = { $name } ofrece tablas. Responde con los botones, o con /tablas respuesta:aceptar o /tablas respuesta:rechazar.
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
forced-capture = Era la única captura permitida.
forced-capture-quantity = Era la única captura permitida: ninguna otra come tantas piezas ({ $best }).
forced-capture-quality = Era la única captura permitida: a igual cantidad de piezas ({ $best }), ninguna otra come tantas damas ({ $kings }).
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
err-challenge-expired = Ese desafío caducó.
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
rules-spanish = Se juega en las 32 casillas oscuras de un tablero de 8×8, con 12 piezas cada jugador; empiezan las { $first }.
    • El peón se mueve una casilla en diagonal hacia adelante. Come solo hacia adelante: salta una pieza contraria contigua y cae en la casilla libre de detrás.
    • El peón que termina su jugada en la última fila corona: pasa a ser dama. La dama vuela: se mueve cualquier número de casillas libres en diagonal, hacia adelante o hacia atrás, y come a distancia, cayendo en cualquier casilla libre detrás de la pieza comida.
    • Comer es obligatorio. Ley de la cantidad: hay que comer el mayor número de piezas. Ley de la calidad: a igual cantidad de piezas, hay que comer más damas. Entre las que quedan, se elige libremente. No se sopla: la captura que no se hace no se castiga quitando la pieza; sencillamente no se puede dejar de comer.
    • La pieza sigue comiendo mientras pueda; las piezas comidas se retiran al terminar la jugada y no se pueden saltar dos veces. El peón que corona comiendo termina ahí su jugada.
    • Pierde quien, en su turno, no tiene piezas o no puede mover. Tablas: de común acuerdo; la misma posición por tercera vez, con el mismo jugador al turno; { $moves } jugadas de cada jugador en las que solo se mueven damas y no se come; y tres damas contra una dama sola, con una de las tres en la gran diagonal 1-5-10-14-19-23-28-32, que no ganan en { $three_kings } jugadas.
rules-portuguese = Igual que en las damas españolas: damas voladoras, el peón come solo hacia adelante, leyes de la cantidad y de la calidad, no se sopla. Empiezan las { $first }.
    • Tablas: de común acuerdo; la misma posición por tercera vez, con el mismo jugador al turno; { $moves } jugadas de cada jugador sin comer. No hay límite de tres damas contra una.
rules-english = Damas inglesas (checkers): tablero de 8×8, 12 piezas cada jugador; empiezan las { $first }.
    • El peón se mueve una casilla en diagonal hacia adelante. Para comer salta una pieza contraria contigua y cae en la casilla libre de detrás: el peón solo hacia adelante, la dama hacia adelante y hacia atrás. La dama también se mueve de a una casilla.
    • Comer es obligatorio, pero se elige cualquier captura, aunque coma menos; una vez empezada hay que completarla. No se sopla. El peón que corona comiendo termina ahí su jugada.
    • Pierde quien, en su turno, no tiene piezas o no puede mover. Tablas: de común acuerdo; la misma posición por tercera vez, con el mismo jugador al turno; { $moves } jugadas de cada jugador sin comer ni mover un peón.
stats-none = { $name } todavía no jugó.
stats-title = Historial de { $name }:
stats-people = { $variant } contra personas: { $wins } G · { $losses } P · { $draws } T — rating { $rating }
stats-bot = { $variant } contra el bot ({ $level }): { $wins } G · { $losses } P · { $draws } T — mejor puntaje { $best }
err-guild-only = Las clasificaciones son por servidor; usa este comando en un servidor.
leaderboard-title = Clasificación — { $variant } (rating)
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
cmd-move-desc = Hace una jugada, por ejemplo 11-15 o 22x15 (o usa el menú bajo el tablero)
cmd-board = tablero
cmd-board-desc = Muestra otra vez el tablero
cmd-resign = abandonar
cmd-resign-desc = Abandona la partida
cmd-draw = tablas
cmd-draw-desc = Ofrece tablas, o acepta o rechaza las ofrecidas
cmd-undo = deshacer
cmd-undo-desc = Deshace tu última jugada (contra el bot; la partida deja de puntuar)
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
opt-variant-desc = Qué damas: españolas (por defecto), portuguesas o inglesas
opt-colour = color
opt-colour-desc = Tu color (al azar si no lo eliges)
opt-level = nivel
opt-level-desc = La fuerza del bot (medio por defecto)
opt-move = jugada
opt-move-desc = La jugada: casillas de salida y de llegada
opt-explain-move-desc = Una jugada para juzgar en la posición actual
opt-user = usuario
opt-user-desc = De quién (el tuyo por defecto)
opt-answer = respuesta
opt-answer-desc = Acepta o rechaza las tablas ofrecidas (sin ella: ofrece tablas, o acepta las ofrecidas)
choice-variant-spanish = Españolas
choice-variant-portuguese = Portuguesas
choice-variant-english = Inglesas (checkers)
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
erase-confirm = Esto te borra de damas: tu nombre y tu id se cambian por "jugador eliminado" en todas las partidas terminadas, y se eliminan tu historial, tu rating, tus puntajes y tus puestos en las clasificaciones. No se puede deshacer. ¿Borrar?
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
thread-name = { $white } vs { $black } · { $variant }
thread-line = { $name } — se juega en el hilo
thread-line-over = { $name } — { $result }
thread-line-cancelled = { $name } — cancelada, no cuenta para ninguno de los dos
thread-unavailable = No puedo abrir hilos en este canal (me falta el permiso Crear hilos públicos), así que la partida se juega aquí.
thread-failed = Discord no me dejó abrir un hilo aquí, así que la partida se juega en este canal.
button-rematch = Revancha
err-rematch-stale = Ese botón de revancha está desactualizado: ya empezó otra partida o los jugadores ya volvieron a jugar.
err-rematch-not-yours = Solo los dos jugadores de esa partida pueden pedir la revancha.

## ballot (three-move openings for English draughts)
opt-opening = apertura
opt-opening-desc = Solo damas inglesas: libre, o tres jugadas sorteadas como en los torneos
choice-opening-free = Libre
choice-opening-ballot = Sorteo de tres jugadas
ballot-drawn = Sorteo de tres jugadas: { $moves }
err-ballot-variant = El sorteo de tres jugadas solo se juega en damas inglesas, no en { $variant }. Elige la variante inglesa, o no indiques apertura.
err-ballot-deck = Ahora no se pueden leer las aperturas del sorteo; desafía con apertura libre.

## puzzles
cmd-puzzle = problema
cmd-puzzle-desc = Un golpe que resolver, en privado: el problema del día o uno al azar
opt-pick = tipo
opt-pick-desc = El problema del día (el mismo para todo el servidor) o uno al azar
choice-pick-today = Hoy
choice-pick-random = Aleatorio
opt-board = tabla
opt-board-desc = Partidas (por defecto) o problemas resueltos
choice-board-games = Partidas
choice-board-puzzles = Problemas
puzzle-title = Problema n.º { $id } — { $variant }
puzzle-caption = Juegan { $side } y ganan
puzzle-daily = El problema del día: juegan { $side } y ganan material (dificultad { $difficulty } de 5).
puzzle-random = Un problema: juegan { $side } y ganan material (dificultad { $difficulty } de 5).
puzzle-how = Encuentra la jugada ganadora y juégala con /mover o el menú; el bot juega la defensa. Solo tú ves este problema.
puzzle-none = No hay problemas para esta modalidad.
puzzle-no-session = No tienes ningún problema en curso: empieza uno con /problema.
puzzle-wrong = { $move } no es la solución. Vuelve a mirar: el problema sigue esperándote (este intento cuenta como fallado).
puzzle-right = ¡{ $move } es correcta! La defensa responde { $reply }. Te toca.
puzzle-right-go-on = ¡{ $move } es correcta! Sigue.
puzzle-solved = { $move }: ¡resuelto!
puzzle-solved-late = { $move }: resuelto, pero tras una jugada equivocada; no cuenta para tu rating.
puzzle-standing = Rating de problemas { $rating } · racha { $streak } (mejor { $best })
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
review-eval = Evaluación para { $colour }: { $before } antes, { $after } después
review-page-better = Mejor: { $move } — línea: { $line }
review-page-refutation = Tras { $move }: { $line }
review-missed-shot = golpe no visto
review-allowed-shot = permite un golpe
review-class-only-move = jugada única
review-class-best = la mejor jugada
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
player-title-earned = 🏅 { $name } gana el título { $title } en { $variant }: { $score } puntos contra el bot en nivel { $level }.
stats-player-title = { $variant }: { $title } (mejor puntaje { $best } contra el bot en nivel { $level })
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
caption-turn = juegan { $color }
err-bot-busy = El bot está ocupado ahora mismo: vuelve a intentarlo en un minuto.
err-too-many-bot-games = Ya tienes { $limit ->
    [one] una partida
   *[other] { $limit } partidas
} en curso contra el bot: termina o abandona una primero.
err-too-many-challenges = Ya tienes { $limit ->
    [one] un desafío abierto
   *[other] { $limit } desafíos abiertos
}: espera una respuesta, o retira uno, primero.
err-review-already-asking = Ya tienes un análisis en marcha: espera a que termine.
err-review-under-way = La partida #{ $id } aún se está jugando: juzgar sus jugadas ahora le diría a un jugador qué jugar. Podrás analizarla en cuanto termine, con /analizar partida:{ $id }.
err-forget-unsure = Puede que el borrado se haya guardado o no: vuelve a usar /olvidarme para asegurarte.
