//! The words of the bot: both Fluent files parse and define the same messages with the same
//! variables; every message the code asks for exists; the slash commands' names, descriptions
//! and choices are valid for Discord in both languages; counts agree in number; and `/rules`
//! states the same facts as docs/RULES.md.

use damas::app::commands::{OptionKind, COMMANDS};
use damas::app::i18n::{self, n, t, tr, Lang};
use damas::app::info::rules_text;
use damas::engine::THREE_KINGS_MOVES;
use damas::engine::{Color, Variant};
use fluent_syntax::ast;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const ES: &str = include_str!("../src/app/i18n/es.ftl");
const EN: &str = include_str!("../src/app/i18n/en.ftl");

/// Message id → the variables it uses.
fn catalogue(name: &str, src: &str) -> BTreeMap<String, BTreeSet<String>> {
    let resource = match fluent_syntax::parser::parse(src) {
        Ok(r) => r,
        Err((_, errors)) => panic!("{name} does not parse: {errors:#?}"),
    };
    let mut out = BTreeMap::new();
    for entry in resource.body {
        match entry {
            ast::Entry::Message(m) => {
                let mut vars = BTreeSet::new();
                let value = m
                    .value
                    .unwrap_or_else(|| panic!("{name}: {} has no value", m.id.name));
                pattern_vars(&value, &mut vars);
                assert!(
                    out.insert(m.id.name.to_string(), vars).is_none(),
                    "{name}: {} is defined twice",
                    m.id.name
                );
            }
            ast::Entry::Junk { content } => panic!("{name}: a line does not parse: {content}"),
            _ => {}
        }
    }
    out
}

fn pattern_vars(p: &ast::Pattern<&str>, vars: &mut BTreeSet<String>) {
    for el in &p.elements {
        if let ast::PatternElement::Placeable { expression } = el {
            expression_vars(expression, vars);
        }
    }
}

fn expression_vars(e: &ast::Expression<&str>, vars: &mut BTreeSet<String>) {
    match e {
        ast::Expression::Select { selector, variants } => {
            inline_vars(selector, vars);
            for v in variants {
                pattern_vars(&v.value, vars);
            }
        }
        ast::Expression::Inline(i) => inline_vars(i, vars),
    }
}

fn inline_vars(i: &ast::InlineExpression<&str>, vars: &mut BTreeSet<String>) {
    match i {
        ast::InlineExpression::VariableReference { id } => {
            vars.insert(id.name.to_string());
        }
        ast::InlineExpression::Placeable { expression } => expression_vars(expression, vars),
        ast::InlineExpression::MessageReference { id, .. } => {
            panic!("message references are not used: {}", id.name)
        }
        _ => {}
    }
}

/// The string literals of the Rust files under `dir` that look like message ids
/// (`err-no-game`), with the file they are in.
fn literal_ids(dir: &Path, prefixes: &BTreeSet<String>, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            literal_ids(&path, prefixes, out);
            continue;
        }
        if path.extension().map_or(true, |e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Any literal given to `t(lang, "…")` or `tr(lang, "…", …)`, whatever it looks like.
        for call in ["t(", "tr("] {
            for (at, _) in text.match_indices(call) {
                let before = text[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let args = &text[at + call.len()..];
                let Some(comma) = args.find(',').filter(|&c| c < 40) else {
                    continue;
                };
                let rest = args[comma + 1..].trim_start();
                if let Some(literal) = rest.strip_prefix('"').and_then(|r| r.split('"').next()) {
                    out.push((literal.to_string(), path.display().to_string()));
                }
            }
        }
        for (i, piece) in text.split('"').enumerate() {
            // Odd pieces are inside quotes (good enough for our sources: no escaped quotes
            // around ids).
            if i % 2 == 0 {
                continue;
            }
            let looks_like_id = piece.contains('-')
                && piece
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !piece.starts_with('-')
                && !piece.ends_with('-');
            let prefix = piece.split('-').next().unwrap_or("");
            if looks_like_id && prefixes.contains(prefix) {
                out.push((piece.to_string(), path.display().to_string()));
            }
        }
    }
}

/// A Discord command or option name: `^[-_\p{L}\p{N}…]{1,32}$`, and lower case.
fn valid_discord_name(name: &str) -> bool {
    let len = name.chars().count();
    (1..=32).contains(&len)
        && name
            .chars()
            .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
        && name.to_lowercase() == name
}

#[test]
fn both_languages_define_the_same_messages_and_the_code_asks_only_for_those() {
    let es = catalogue("es.ftl", ES);
    let en = catalogue("en.ftl", EN);
    let es_ids: BTreeSet<_> = es.keys().collect();
    let en_ids: BTreeSet<_> = en.keys().collect();
    assert_eq!(
        es_ids.difference(&en_ids).collect::<Vec<_>>(),
        Vec::<&&String>::new(),
        "in es.ftl only"
    );
    assert_eq!(
        en_ids.difference(&es_ids).collect::<Vec<_>>(),
        Vec::<&&String>::new(),
        "in en.ftl only"
    );
    for (id, vars) in &en {
        assert_eq!(vars, &es[id], "{id}: the two files use different variables");
    }

    // Every literal id in the code that speaks to people.
    let prefixes: BTreeSet<String> = en
        .keys()
        .map(|id| id.split('-').next().unwrap().to_string())
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut used = vec![];
    for dir in ["app", "console", "discord"] {
        literal_ids(&root.join(dir), &prefixes, &mut used);
    }
    assert!(used.len() > 100, "the scan found the ids: {}", used.len());
    let missing: Vec<_> = used.iter().filter(|(id, _)| !en.contains_key(id)).collect();
    assert!(missing.is_empty(), "ids used but not defined: {missing:?}");

    // The ids the code builds from names.
    let mut built = vec![];
    for v in Variant::ALL {
        built.push(format!("variant-{}", v.id()));
        built.push(format!("rules-{}", v.id()));
    }
    for l in damas::ai::Level::ALL {
        built.push(format!("level-{}", l.id()));
    }
    for c in COMMANDS {
        built.push(c.name_id());
        built.push(c.description_id());
        for o in c.options {
            built.push(o.name_id());
            built.push(o.description.to_string());
            if let OptionKind::Choice(choices) = o.kind {
                for v in choices.values() {
                    built.push(choices.label_id(v));
                }
            }
        }
    }
    for id in &built {
        assert!(
            en.contains_key(id),
            "{id} is built by the code but not defined"
        );
    }
}

#[test]
fn command_names_descriptions_and_choices_are_valid_on_discord() {
    for lang in [Lang::En, Lang::Es] {
        let mut names = BTreeSet::new();
        for c in COMMANDS {
            let name = c.localized_name(lang);
            assert!(valid_discord_name(&name), "{lang:?} command name {name:?}");
            assert!(names.insert(name.clone()), "{lang:?}: {name} twice");
            if lang == Lang::En {
                assert_eq!(name, c.name, "the English name is the registered one");
            }
            let desc = t(lang, &c.description_id());
            assert!((1..=100).contains(&desc.chars().count()), "{desc:?}");
            let mut options = BTreeSet::new();
            for o in c.options {
                let oname = o.localized_name(lang);
                assert!(valid_discord_name(&oname), "{lang:?} option {oname:?}");
                assert!(
                    options.insert(oname.clone()),
                    "{} has {oname} twice",
                    c.name
                );
                if lang == Lang::En {
                    assert_eq!(oname, o.name);
                }
                let desc = t(lang, o.description);
                assert!((1..=100).contains(&desc.chars().count()), "{desc:?}");
                if let OptionKind::Choice(choices) = o.kind {
                    for v in choices.values() {
                        let label = t(lang, &choices.label_id(v));
                        assert!((1..=100).contains(&label.chars().count()));
                        assert_eq!(choices.parse(&label), Some(v), "the label reads back");
                    }
                }
            }
        }
    }
    // The Spanish names keep their accents, and are found with or without them.
    let stats = damas::app::commands::find("estadísticas").expect("found");
    assert_eq!(stats.name, "stats");
    assert_eq!(
        damas::app::commands::find("clasificacion").unwrap().name,
        "leaderboard"
    );
    assert_eq!(
        damas::app::commands::find("/desafiar").unwrap().name,
        "challenge"
    );
    assert!(damas::app::commands::find("frobnicate").is_none());
}

#[test]
fn counts_of_one_are_singular() {
    let one = n(1.0);
    let two = n(2.0);
    let cases: [(&str, &str, &str, &str); 5] = [
        ("leaderboard-line", "games", "(1 partida)", "(1 game)"),
        (
            "status-no-progress",
            "left",
            "queda una jugada",
            "one move left",
        ),
        (
            "status-three-kings",
            "left",
            "queda una jugada",
            "one move left",
        ),
        ("challenge-posted", "minutes", "un minuto", "one minute"),
        ("menu-captures", "kings", "(1 dama)", "(1 king)"),
    ];
    for (id, var, es, en) in cases {
        let all = [
            ("rank", one.clone()),
            ("name", i18n::s("ana")),
            ("score", two.clone()),
            ("challenger", i18n::s("ana")),
            ("opponent", i18n::s("beto")),
            ("variant", i18n::s("x")),
            ("pieces", two.clone()),
        ];
        let mut with_one: Vec<_> = all.to_vec();
        with_one.push((var, one.clone()));
        let mut with_two: Vec<_> = all.to_vec();
        with_two.push((var, two.clone()));
        let es_one = tr(Lang::Es, id, &with_one);
        let en_one = tr(Lang::En, id, &with_one);
        assert!(es_one.contains(es), "{id}: {es_one}");
        assert!(en_one.contains(en), "{id}: {en_one}");
        assert!(!tr(Lang::Es, id, &with_two).contains(es), "{id} with 2");
        assert!(!tr(Lang::En, id, &with_two).contains(en), "{id} with 2");
    }
}

/// Debug builds and tests stop on a missing message instead of showing its id.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "no message")]
fn a_missing_message_is_an_error_not_a_raw_id() {
    let _ = t(Lang::En, "no-such-message");
}

/// The facts row of docs/RULES.md's table, by its first cell: one cell per variant.
fn doc_row<'a>(doc: &'a str, fact: &str) -> Vec<&'a str> {
    let line = doc
        .lines()
        .find(|l| l.split('|').nth(1).is_some_and(|c| c.trim() == fact))
        .unwrap_or_else(|| panic!("docs/RULES.md has no row {fact:?}"));
    line.split('|').skip(2).take(3).map(str::trim).collect()
}

#[test]
fn the_rules_command_and_docs_rules_md_state_the_same_facts() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/RULES.md"))
        .expect("docs/RULES.md");
    let header = doc_row(&doc, "fact");
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        assert_eq!(header[i], v.id());
        let en = rules_text(Lang::En, v);
        let es = rules_text(Lang::Es, v);

        let first = v.first_player();
        let (first_en, first_es) = match first {
            Color::White => ("White", "blancas"),
            Color::Black => ("Black", "negras"),
        };
        assert_eq!(doc_row(&doc, "first to move")[i], first_en, "{v}");
        assert!(en.contains(&format!("{first_en} moves first")), "{en}");
        assert!(es.contains(&format!("mpiezan las {first_es}")), "{es}");

        let moves = v.no_progress_limit() / 2;
        assert_eq!(
            doc_row(&doc, "no-progress draw")[i],
            format!("{moves} moves each")
        );
        assert!(en.contains(&format!("{moves} moves each")), "{en}");
        assert!(
            es.contains(&format!("{moves} jugadas de cada jugador")),
            "{es}"
        );

        let three = doc_row(&doc, "three kings against one")[i];
        if v.three_kings_rule() {
            assert_eq!(three, format!("{THREE_KINGS_MOVES} moves"));
            assert!(
                en.contains(&format!("within {THREE_KINGS_MOVES} moves")),
                "{en}"
            );
            assert!(en.contains("1-5-10-14-19-23-28-32"), "{en}");
            assert!(
                es.contains(&format!("en {THREE_KINGS_MOVES} jugadas")),
                "{es}"
            );
        } else {
            assert_eq!(three, "none");
            assert!(!en.contains(&format!("{THREE_KINGS_MOVES} moves")), "{en}");
        }

        assert_eq!(
            doc_row(&doc, "PDN GameType")[i],
            v.pdn_game_type().to_string()
        );
        assert_eq!(
            doc_row(&doc, "start (FEN)")[i],
            format!("`{}`", v.start_fen())
        );
        let kings = doc_row(&doc, "kings")[i];
        assert_eq!(kings == "flying", v.flying_kings(), "{v}: {kings}");
        // No variant huffs, and each text says so.
        assert!(en.contains("no huffing"), "{en}");
        assert!(
            es.contains("no se sopla") || es.contains("No se sopla"),
            "{es}"
        );
    }
}

/// The note under the bot's capture: "the only capture allowed" with the law in plain words,
/// and nothing about laws where the variant leaves the choice free.
#[test]
fn the_bot_explains_a_capture_it_had_to_make_in_plain_words() {
    use damas::app::play::forced_note;
    use damas::engine::Position;
    let note = |v: Variant, fen: &str, lang: Lang| {
        let pos = Position::from_fen(v, fen).unwrap();
        let mv = pos.legal_moves()[0];
        forced_note(lang, &pos, &mv)
    };
    // Spanish, one capture on the board: it was the only one, no law chose it.
    let only = note(Variant::Spanish, "W:W14:B18", Lang::En).unwrap();
    assert_eq!(only, "It was the only capture allowed.");
    assert_eq!(
        note(Variant::Spanish, "W:W14:B18", Lang::Es).unwrap(),
        "Era la única captura permitida."
    );
    // Spanish, the law of quantity left one of three.
    let quantity = note(Variant::Spanish, "W:W14:B18,19,27", Lang::Es).unwrap();
    assert!(
        quantity.starts_with("Era la única captura permitida: "),
        "{quantity}"
    );
    assert!(
        quantity.contains("más piezas") || quantity.contains("tantas piezas"),
        "{quantity}"
    );
    assert_eq!(quantity.matches(':').count(), 1, "one colon: {quantity}");
    // Spanish, two equal captures: the choice was free, nothing to say.
    assert_eq!(note(Variant::Spanish, "W:W14:B18,19", Lang::En), None);
    // English, one capture: no law is invoked.
    let english = note(Variant::English, "B:W18:B14", Lang::En).unwrap();
    assert_eq!(english, "It was the only capture allowed.");
    // English, three captures to choose from: nothing.
    assert_eq!(note(Variant::English, "B:W18,19:B14,15", Lang::En), None);
}
