//! The words of the bot: both Fluent files parse and define the same messages with the same
//! variables; every message the code builds from names exists (those written in the code
//! are checked while compiling, see `fl!`); the slash commands' names, descriptions
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

const ES: &str = include_str!("../../src/app/i18n/es.ftl");
const EN: &str = include_str!("../../src/app/i18n/en.ftl");

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

    // Ids written in the code are checked while compiling (`fl!`, generated from the files
    // by build.rs); the ids the code builds from names at run time are these.
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
        if let Some(group) = c.group {
            built.push(damas::app::commands::group_name_id(group));
            built.push(format!(
                "{}-desc",
                damas::app::commands::group_name_id(group)
            ));
        }
        for o in c.options {
            built.push(o.name_id());
            built.push(o.description.id().to_string());
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
            // A subcommand's name is unique within its group.
            assert!(
                names.insert((c.group, name.clone())),
                "{lang:?}: {name} twice"
            );
            if let Some(group) = c.group {
                let group_name = t(lang, &damas::app::commands::group_name_id(group));
                assert!(
                    valid_discord_name(&group_name),
                    "{lang:?} group {group_name:?}"
                );
                assert!(
                    !group_name.chars().any(|ch| "áéíóúñ".contains(ch))
                        && !name.chars().any(|ch| "áéíóúñ".contains(ch)),
                    "subcommands and their groups are named without accents: {group_name} {name}"
                );
                let desc = t(
                    lang,
                    &format!("{}-desc", damas::app::commands::group_name_id(group)),
                );
                assert!((1..=100).contains(&desc.chars().count()), "{desc:?}");
            }
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
        let id = &id.to_string();
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
    let _ = t(Lang::En, &"no-such-message".to_string());
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

/// The variables a message selects on by name (`$tense -> [present] … [past] …`), with the
/// names of their variants, so that every variant can be rendered.
fn named_selectors(src: &str) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    fn walk(p: &ast::Pattern<&str>, out: &mut BTreeMap<String, BTreeSet<String>>) {
        for el in &p.elements {
            if let ast::PatternElement::Placeable { expression } = el {
                walk_expression(expression, out);
            }
        }
    }
    fn walk_expression(e: &ast::Expression<&str>, out: &mut BTreeMap<String, BTreeSet<String>>) {
        match e {
            ast::Expression::Select { selector, variants } => {
                if let ast::InlineExpression::VariableReference { id } = selector {
                    for v in variants {
                        if let ast::VariantKey::Identifier { name } = v.key {
                            if !["zero", "one", "two", "few", "many", "other"].contains(&name) {
                                out.entry(id.name.to_string())
                                    .or_default()
                                    .insert(name.to_string());
                            }
                        }
                    }
                }
                for v in variants {
                    walk(&v.value, out);
                }
            }
            ast::Expression::Inline(ast::InlineExpression::Placeable { expression }) => {
                walk_expression(expression, out)
            }
            ast::Expression::Inline(_) => {}
        }
    }
    let resource = fluent_syntax::parser::parse(src).expect("parses");
    let mut out = BTreeMap::new();
    for entry in resource.body {
        if let ast::Entry::Message(m) = entry {
            let mut named = BTreeMap::new();
            if let Some(value) = &m.value {
                walk(value, &mut named);
            }
            out.insert(m.id.name.to_string(), named);
        }
    }
    out
}

/// Every message of a language as people can read it: each variable given the counts 0, 1, 2
/// and 5 in turn, and each named variant of a selector (`$tense`: present and past).
fn every_rendering(lang: Lang, src: &str) -> Vec<(String, String)> {
    let vars = catalogue("ftl", src);
    let named = named_selectors(src);
    let mut out = Vec::new();
    for (id, vars) in &vars {
        // The combinations of the named selectors' variants.
        let mut combos: Vec<Vec<(String, String)>> = vec![vec![]];
        for (var, keys) in &named[id] {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    keys.iter().map(move |k| {
                        let mut c = c.clone();
                        c.push((var.clone(), k.clone()));
                        c
                    })
                })
                .collect();
        }
        for count in [0.0, 1.0, 2.0, 5.0] {
            for combo in &combos {
                let args: Vec<(&str, fluent_bundle::FluentValue)> = vars
                    .iter()
                    .map(|v| match combo.iter().find(|(name, _)| name == v) {
                        Some((_, key)) => (v.as_str(), i18n::s(key)),
                        None => (v.as_str(), n(count)),
                    })
                    .collect();
                out.push((id.clone(), tr(lang, id, &args)));
            }
        }
    }
    out
}

/// The text with what is quoted («…», “…”, "…") left out: a quote may hold anything.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut inside: Option<char> = None;
    for c in text.chars() {
        match (inside, c) {
            (None, '«') => inside = Some('»'),
            (None, '“') => inside = Some('”'),
            (None, '"') => inside = Some('"'),
            (Some(close), c) if c == close => inside = None,
            (None, c) => out.push(c),
            (Some(_), _) => {}
        }
    }
    out
}

/// The sentences of a text: split at full stops, question and exclamation marks that end a
/// sentence (followed by a space or the end) and at line breaks.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let ends = match c {
            '\n' => true,
            '.' | '?' | '!' => chars.get(i + 1).map_or(true, |n| n.is_whitespace()),
            _ => false,
        };
        if c != '\n' {
            current.push(c);
        }
        if ends {
            out.push(std::mem::take(&mut current));
        }
    }
    out.push(current);
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

/// "No es legal: ley de la cantidad: hay que…" strings clauses together with colons; a
/// sentence introduces at most one thing with a colon. (A colon inside a word, as in
/// `/draw answer:accept`, is command syntax, not punctuation.)
fn assert_one_colon_a_sentence(id: &str, text: &str) {
    for sentence in sentences(&unquoted(text)) {
        let colons = sentence
            .char_indices()
            .filter(|&(i, c)| {
                c == ':'
                    && sentence[i + 1..]
                        .chars()
                        .next()
                        .map_or(true, char::is_whitespace)
            })
            .count();
        assert!(
            colons <= 1,
            "{id}: two colons in one sentence: {sentence:?}"
        );
    }
}

/// Spanish negative words after the verb need a "no" before them: "esa jugada no come
/// ninguna", never "esa jugada come ninguna". In a clause's first two words they are the
/// subject ("Ninguna imprecisión…", "Aquí nadie ha terminado…").
fn assert_spanish_negation(id: &str, text: &str) {
    const NEGATIVE: [&str; 7] = [
        "ninguno", "ninguna", "ningún", "nada", "nadie", "nunca", "tampoco",
    ];
    const NEGATION: [&str; 4] = ["no", "ni", "sin", "nunca"];
    for clause in text.split(|c: char| ",;:.—()\n¿?¡!".contains(c)) {
        let words: Vec<String> = clause
            .split_whitespace()
            .map(|w| w.to_lowercase())
            .collect();
        for (i, w) in words.iter().enumerate() {
            if i >= 2 && NEGATIVE.contains(&w.as_str()) {
                assert!(
                    words[..i].iter().any(|p| NEGATION.contains(&p.as_str())),
                    "{id}: «{w}» without a negation before it in {clause:?}"
                );
            }
        }
    }
}

#[test]
fn no_sentence_strings_clauses_together_with_two_colons() {
    for (lang, src) in [(Lang::Es, ES), (Lang::En, EN)] {
        for (id, text) in every_rendering(lang, src) {
            assert_one_colon_a_sentence(&id, &text);
        }
    }
    // Also where messages are put together: a refusal inside an explanation.
    use damas::engine::{explain, Attempt, Position};
    let cases = [
        // Quantity: 14x23 takes one, 15x24x… more.
        (Variant::Spanish, "W:W14:B18,19,27", "14x23"),
        // Quality: both take one piece; only one takes a king.
        (Variant::Spanish, "W:W14,15:B18,K19", "14x21"),
        // Mandatory: a plain move while a capture waits.
        (Variant::Spanish, "W:W9,14:B18", "9-13"),
        (Variant::English, "B:W18:B14,1", "1-5"),
        // No capture: a man moving backwards.
        (Variant::Spanish, "W:W14:B30", "14-9"),
    ];
    for (variant, fen, attempt) in cases {
        let pos = Position::from_fen(variant, fen).unwrap();
        let exp = explain(&pos, Some(Attempt::Text(attempt)));
        assert!(
            matches!(exp.verdict, Some(damas::engine::Verdict::Illegal { .. })),
            "{fen} {attempt}: {exp:?}"
        );
        for lang in [Lang::Es, Lang::En] {
            for tense in [i18n::Tense::Present, i18n::Tense::Past] {
                let text = i18n::explanation_text(lang, &exp, tense);
                assert_one_colon_a_sentence(&format!("{fen} {attempt}"), &text);
                // The reason stands as a sentence of its own, capitalized.
                let verdict = text.lines().last().unwrap();
                let reason = verdict
                    .strip_prefix("No es legal. ")
                    .or_else(|| verdict.strip_prefix("Not legal. "))
                    .unwrap_or_else(|| panic!("{verdict}"));
                assert!(reason.starts_with(char::is_uppercase), "{verdict}");
            }
        }
    }
}

#[test]
fn spanish_negative_words_come_with_their_no() {
    for (id, text) in every_rendering(Lang::Es, ES) {
        assert_spanish_negation(&id, &text);
    }
    // The law of quality with a capture that takes no king.
    let none = tr(
        Lang::Es,
        damas::fl!("err-quality"),
        &[
            ("best", n(1.0)),
            ("yours", n(0.0)),
            ("moves", i18n::s("14x23")),
        ],
    );
    assert!(none.contains("esa jugada no come ninguna"), "{none}");
    assert!(!none.contains("come más damas"), "{none}");
}

/// Spanish names the colours with their article, "juegan las blancas", except as a label at
/// the start ("Blancas: …") or in brackets ("ana (blancas)").
#[test]
fn spanish_colours_take_their_article() {
    for var in ["color", "colour", "side", "winner", "first"] {
        let placeable = format!("{{ ${var} }}");
        for (at, _) in ES.match_indices(&placeable) {
            let before = &ES[..at];
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let on_line = &before[line_start..];
            let ok = before.ends_with("las ")
                || before.ends_with('(')
                || on_line.trim_end().ends_with('=')
                || on_line.trim_start().starts_with('[') && on_line.trim_end().ends_with(']');
            assert!(
                ok,
                "es.ftl: «{on_line}{placeable}» needs «las» before the colour"
            );
        }
    }
    // And so the status lines read.
    let turn = tr(
        Lang::Es,
        damas::fl!("caption-turn"),
        &[("color", i18n::s(i18n::color_name(Lang::Es, Color::Black)))],
    );
    assert_eq!(turn, "juegan las negras");
}

/// An explanation speaks in the present of the position on the board, in the past of a move
/// already played.
#[test]
fn explanations_speak_in_the_tense_of_what_they_explain() {
    use damas::engine::{explain, Attempt, Position};
    let pos = Position::from_fen(Variant::Spanish, "W:W14:B18,19,27").unwrap();
    let exp = explain(&pos, Some(Attempt::Text("14x23")));
    let now = i18n::explanation_text(Lang::Es, &exp, i18n::Tense::Present);
    assert!(now.starts_with("Hay 2 capturas:"), "{now}");
    assert!(now.contains("solo valen"), "{now}");
    assert!(!now.contains("Había") && !now.contains("valían"), "{now}");
    let then = i18n::explanation_text(Lang::Es, &exp, i18n::Tense::Past);
    assert!(then.starts_with("Había 2 capturas:"), "{then}");
    assert!(then.contains("solo valían"), "{then}");
    let now_en = i18n::explanation_text(Lang::En, &exp, i18n::Tense::Present);
    assert!(
        now_en.starts_with("Two captures are available:"),
        "{now_en}"
    );
    let then_en = i18n::explanation_text(Lang::En, &exp, i18n::Tense::Past);
    assert!(
        then_en.starts_with("Two captures were available:"),
        "{then_en}"
    );
    // Without a capture, the line about captures speaks only of captures.
    let quiet = Position::from_fen(Variant::Spanish, "W:W14:B30").unwrap();
    let exp = explain(&quiet, Some(Attempt::Text("14-9")));
    let en = i18n::explanation_text(Lang::En, &exp, i18n::Tense::Present);
    assert!(
        en.starts_with("There is no capture, so no capture is required."),
        "{en}"
    );
    assert!(!en.contains("any move"), "{en}");
}
