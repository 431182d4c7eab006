//! The slash commands: English names with Spanish localizations (es-ES and es-419),
//! descriptions in both languages.

use serenity::all::{CommandOptionType, CreateCommand, CreateCommandOption};

const SPANISH: [&str; 2] = ["es-ES", "es-419"];

fn command(name: &str, es_name: &str, en: &str, es: &str) -> CreateCommand {
    let mut c = CreateCommand::new(name).description(en);
    for l in SPANISH {
        c = c.name_localized(l, es_name).description_localized(l, es);
    }
    c
}

fn option(
    kind: CommandOptionType,
    name: &str,
    es_name: &str,
    en: &str,
    es: &str,
) -> CreateCommandOption {
    let mut o = CreateCommandOption::new(kind, name, en);
    for l in SPANISH {
        o = o.name_localized(l, es_name).description_localized(l, es);
    }
    o
}

fn choice(o: CreateCommandOption, value: &str, en: &str, es: &str) -> CreateCommandOption {
    o.add_string_choice_localized(en, value, SPANISH.map(|l| (l, es)))
}

fn variant_option() -> CreateCommandOption {
    let o = option(
        CommandOptionType::String,
        "variant",
        "variante",
        "Which draughts: Spanish (default), Portuguese or English",
        "Qué damas: españolas (por defecto), portuguesas o inglesas",
    );
    let o = choice(o, "spanish", "Spanish", "Españolas");
    let o = choice(o, "portuguese", "Portuguese", "Portuguesas");
    choice(o, "english", "English (checkers)", "Inglesas (checkers)")
}

fn colour_option() -> CreateCommandOption {
    let o = option(
        CommandOptionType::String,
        "colour",
        "color",
        "Your colour (random if left out)",
        "Tu color (al azar si no lo eliges)",
    );
    let o = choice(o, "white", "White", "Blancas");
    choice(o, "black", "Black", "Negras")
}

fn level_option() -> CreateCommandOption {
    let o = option(
        CommandOptionType::String,
        "level",
        "nivel",
        "The bot's strength (medium by default)",
        "La fuerza del bot (medio por defecto)",
    );
    let o = choice(o, "easy", "Easy", "Fácil");
    let o = choice(o, "medium", "Medium", "Medio");
    let o = choice(o, "hard", "Hard", "Difícil");
    choice(o, "expert", "Expert", "Experto")
}

/// Every command the bot registers.
pub fn all() -> Vec<CreateCommand> {
    vec![
        command(
            "challenge",
            "desafiar",
            "Challenge someone to a game of draughts",
            "Desafía a alguien a una partida de damas",
        )
        .add_option(
            option(
                CommandOptionType::User,
                "opponent",
                "rival",
                "Who you challenge",
                "A quién desafías",
            )
            .required(true),
        )
        .add_option(variant_option())
        .add_option(colour_option()),
        command(
            "play",
            "jugar",
            "Play against the bot",
            "Juega contra el bot",
        )
        .add_option(level_option())
        .add_option(variant_option())
        .add_option(colour_option()),
        command(
            "move",
            "mover",
            "Play a move, like 11-15 or 22x15",
            "Juega una jugada, como 11-15 o 22x15",
        )
        .add_option(
            option(
                CommandOptionType::String,
                "move",
                "jugada",
                "The move: from and to squares",
                "La jugada: casillas de salida y de llegada",
            )
            .required(true)
            .set_autocomplete(true),
        ),
        command(
            "board",
            "tablero",
            "Show the board again",
            "Muestra otra vez el tablero",
        ),
        command(
            "resign",
            "abandonar",
            "Resign the game",
            "Abandona la partida",
        ),
        command(
            "draw",
            "tablas",
            "Offer a draw, or accept one",
            "Ofrece tablas, o acepta las ofrecidas",
        ),
        command(
            "undo",
            "deshacer",
            "Take back your last move (against the bot; the game becomes unranked)",
            "Deshace tu última jugada (contra el bot; la partida deja de puntuar)",
        ),
        command(
            "explain",
            "explicar",
            "Why the last move (or a move) is or is not allowed",
            "Por qué la última jugada (o una jugada) vale o no vale",
        )
        .add_option(option(
            CommandOptionType::String,
            "move",
            "jugada",
            "A move to judge in the current position",
            "Una jugada para juzgar en la posición actual",
        )),
        command(
            "rules",
            "reglas",
            "The rules of a variant",
            "Las reglas de una variante",
        )
        .add_option(variant_option()),
        command(
            "stats",
            "estadisticas",
            "Someone's record",
            "El historial de alguien",
        )
        .add_option(option(
            CommandOptionType::User,
            "user",
            "usuario",
            "Whose record (yours by default)",
            "De quién (el tuyo por defecto)",
        )),
        command(
            "leaderboard",
            "clasificacion",
            "This server's best players",
            "Los mejores jugadores de este servidor",
        )
        .add_option(variant_option())
        .add_option(level_option()),
        command(
            "pdn",
            "pdn",
            "The game as a PDN file",
            "La partida en un archivo PDN",
        ),
        command("help", "ayuda", "How to play", "Cómo jugar"),
        command(
            "cancel",
            "cancelar",
            "End a stuck game in this channel (Manage Messages)",
            "Termina una partida atascada en este canal (Gestionar mensajes)",
        ),
    ]
}
