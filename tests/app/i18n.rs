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
        // `WORDS($count)`: the variables of its arguments.
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_vars(a, vars);
            }
            for a in &arguments.named {
                inline_vars(&a.value, vars);
            }
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
    every_rendering_naming(lang, src, &[])
}

/// The variables that hold names, not counts ("ana challenges beto"), for checks that read
/// what follows a number.
const NAME_VARS: [&str; 17] = [
    "name",
    "challenger",
    "opponent",
    "organiser",
    "white",
    "black",
    "names",
    "winner",
    "tournament",
    "variant",
    "level",
    "title",
    "side",
    "color",
    "colour",
    "first",
    "file",
];

/// [`every_rendering`], with the variables `names` given a name instead of a count.
fn every_rendering_naming(lang: Lang, src: &str, names: &[&str]) -> Vec<(String, String)> {
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
                        None if names.contains(&v.as_str()) => (v.as_str(), i18n::s("ana")),
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
                let text = damas::app::reply::plain(&text).into_owned();
                assert_one_colon_a_sentence(&format!("{fen} {attempt}"), &text);
                // The verdict names the move; the reason stands as a sentence of its own,
                // capitalized, or (a plain move while a capture waits, the law said just
                // above) in a few words after a colon.
                let verdict = text.lines().last().unwrap();
                let rest = verdict
                    .strip_prefix(&format!("{attempt} no es legal"))
                    .or_else(|| verdict.strip_prefix(&format!("{attempt} is not legal")))
                    .unwrap_or_else(|| panic!("{verdict}"));
                match rest.strip_prefix(". ") {
                    Some(reason) => assert!(reason.starts_with(char::is_uppercase), "{verdict}"),
                    None => assert!(rest.starts_with(": "), "{verdict}"),
                }
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
            ("count", n(1.0)),
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
    assert!(now.starts_with("Hay dos capturas:"), "{now}");
    assert!(now.contains("solo valen"), "{now}");
    assert!(!now.contains("Había") && !now.contains("valían"), "{now}");
    let then = i18n::explanation_text(Lang::Es, &exp, i18n::Tense::Past);
    assert!(then.starts_with("Había dos capturas:"), "{then}");
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
        en.starts_with("No capture is available, so none is required."),
        "{en}"
    );
    assert!(!en.contains("any move"), "{en}");
}

/// The messages that explain captures and laws, where small counts read as words ("dos
/// capturas", "two pieces"), never as digits.
const SPELLED_COUNTS: [&str; 7] = [
    "explain-captures-header",
    "explain-capture-line",
    "law-quality",
    "forced-capture-quality",
    "err-quantity",
    "err-quality",
    "alt-arrow",
];

/// Nouns in the plural that the messages count, in both languages.
const PLURAL_NOUNS: [&str; 44] = [
    "partidas",
    "jugadas",
    "piezas",
    "capturas",
    "damas",
    "peones",
    "casillas",
    "jugadores",
    "días",
    "horas",
    "minutos",
    "segundos",
    "rondas",
    "puntos",
    "desafíos",
    "ganadas",
    "perdidas",
    "resueltos",
    "imprecisiones",
    "errores",
    "golpes",
    "otras",
    "games",
    "moves",
    "pieces",
    "captures",
    "kings",
    "men",
    "squares",
    "players",
    "days",
    "hours",
    "minutes",
    "seconds",
    "rounds",
    "points",
    "challenges",
    "wins",
    "losses",
    "draws",
    "inaccuracies",
    "mistakes",
    "blunders",
    "others",
];

/// Counts agree in number, and one to five are spelled out where the rules are explained:
/// "Hay 2 capturas" reads "Hay dos capturas"; "1 capturas", "1 games" never appear.
#[test]
fn counts_agree_and_small_ones_are_words() {
    for (lang, src) in [(Lang::Es, ES), (Lang::En, EN)] {
        for (id, text) in every_rendering_naming(lang, src, &NAME_VARS) {
            // A count of one never stands before a plural noun. (The rules' counts are the
            // variants' constants, never one.)
            let words: Vec<&str> = if id.starts_with("rules-") {
                Vec::new()
            } else {
                text.split_whitespace().collect()
            };
            for pair in words.windows(2) {
                let noun = pair[1].trim_matches(|c: char| !c.is_alphabetic());
                let plural = PLURAL_NOUNS.contains(&noun);
                assert!(
                    !(pair[0].trim_start_matches('(') == "1" && plural),
                    "{id}: «{} {}» in {text:?}",
                    pair[0],
                    pair[1]
                );
            }
            if SPELLED_COUNTS.contains(&id.as_str()) {
                for digit in ["2 ", "5 "] {
                    let digit_noun = text.match_indices(digit).any(|(at, _)| {
                        let next = text[at + 2..]
                            .split(|c: char| !c.is_alphabetic())
                            .next()
                            .unwrap_or_default();
                        text[..at].ends_with([' ', '(']) && PLURAL_NOUNS.contains(&next)
                    });
                    assert!(!digit_noun, "{id}: a small count in digits: {text:?}");
                }
            }
        }
    }
    // The moves a refusal offers: one is "the only", several a list.
    use damas::engine::{MoveError, Position};
    let refused = |fen: &str, text: &str, lang: Lang| {
        let pos = Position::from_fen(Variant::Spanish, fen).unwrap();
        let error: MoveError = pos.parse_move(text).unwrap_err();
        i18n::move_error_text(lang, &error)
    };
    // One capture waits (14x21) and a plain move is tried.
    let one = refused("W:W9,14:B18", "9-13", Lang::Es);
    assert!(one.contains("La única captura válida es 14x21."), "{one}");
    assert!(!one.contains("Capturas válidas"), "{one}");
    let one = refused("W:W9,14:B18", "9-13", Lang::En);
    assert!(one.contains("The only allowed capture is 14x21."), "{one}");
    // Two captures wait.
    let two = refused("W:W9,14:B18,19", "9-13", Lang::Es);
    assert!(two.contains("Capturas válidas: "), "{two}");
}

/// A capture written with "x" that the position does not hold is refused as such ("there
/// is no capture from 14 to 24"), not as a plain move while capturing is mandatory.
#[test]
fn a_capture_that_does_not_exist_is_named() {
    use damas::engine::{IllegalMove, MoveError, Position};
    let pos = Position::from_fen(Variant::Spanish, "W:W9,14:B18").unwrap();
    for (text, from, to) in [("14x24", 14, 24), ("9x13", 9, 13), ("9x18", 9, 18)] {
        let error = pos.parse_move(text).unwrap_err();
        assert!(
            matches!(
                &error,
                MoveError::Illegal(IllegalMove::NoSuchCapture { from: f, to: t })
                    if f.number() == from && t.number() == to
            ),
            "{text}: {error:?}"
        );
        assert_eq!(
            i18n::move_error_text(Lang::Es, &error),
            format!("No hay ninguna captura de {from} a {to}.")
        );
    }
    // Written as a plain move, the same squares are a plain move refused: a capture waits.
    let plain = pos.parse_move("9-13").unwrap_err();
    assert!(
        matches!(
            plain,
            MoveError::Illegal(IllegalMove::CaptureMandatory { .. })
        ),
        "{plain:?}"
    );
}

/// `/explain` names the move it refuses, as it names the one it accepts, and says
/// "capturing is mandatory" once.
#[test]
fn an_explanation_names_the_refused_move_and_says_each_law_once() {
    use damas::engine::{explain, Attempt, Position};
    let pos = Position::from_fen(Variant::Spanish, "W:W9,14:B18").unwrap();
    let words = |lang, exp: &damas::engine::Explanation| {
        let text = i18n::explanation_text(lang, exp, i18n::Tense::Present);
        damas::app::reply::plain(&text).into_owned()
    };
    let exp = explain(&pos, Some(Attempt::Text("9-13")));
    let es = words(Lang::Es, &exp);
    assert!(es.contains("9-13 no es legal"), "{es}");
    assert_eq!(es.matches("Comer es obligatorio").count(), 1, "{es}");
    let en = words(Lang::En, &exp);
    assert!(en.contains("9-13 is not legal"), "{en}");
    assert_eq!(en.matches("Capturing is mandatory").count(), 1, "{en}");
    let exp = explain(&pos, Some(Attempt::Text("14x24")));
    let es = words(Lang::Es, &exp);
    assert!(
        es.ends_with("14x24 no es legal. No hay ninguna captura de 14 a 24."),
        "{es}"
    );
}

/// Spanish numbers take a decimal comma and the minus sign (−), and a score is said in words
/// with no number beside a colour: "ventaja de las negras", never "(-6.89)".
#[test]
fn scores_read_in_words_and_spanish_numbers_take_a_comma() {
    use damas::app::i18n::eval_text;
    for score in [-1833, -689, -150, -40, -5, 0, 5, 40, 150, 689, 1833] {
        for lang in [Lang::Es, Lang::En] {
            let words = eval_text(lang, score);
            assert!(
                !words.chars().any(|c| c.is_ascii_digit()),
                "{score}: a number beside the words: {words}"
            );
        }
    }
    assert_eq!(eval_text(Lang::En, 1833), "White is winning");
    assert_eq!(eval_text(Lang::Es, -689), "ganan las negras");
    assert_eq!(eval_text(Lang::Es, -40), "ventaja de las negras");
    assert_eq!(i18n::eval_number(Lang::Es, -689).unwrap(), "−6,89");
    assert_eq!(i18n::eval_number(Lang::En, -689).unwrap(), "−6.89");
    assert_eq!(i18n::eval_number(Lang::Es, 40).unwrap(), "+0,40");
    // And no Spanish message writes a decimal point or a hyphen for minus.
    for (id, text) in every_rendering(Lang::Es, ES) {
        let chars: Vec<char> = text.chars().collect();
        for w in chars.windows(3) {
            assert!(
                !(w[0].is_ascii_digit() && w[1] == '.' && w[2].is_ascii_digit()),
                "{id}: a decimal point in Spanish: {text:?}"
            );
        }
    }
}

/// Each language quotes as it is written: «…» in Spanish, “…” in English (never the other's,
/// never straight quotes), and what a person typed is always quoted.
#[test]
fn each_language_quotes_its_own_way() {
    for (lang, src, foreign) in [
        (Lang::Es, ES, ['“', '”', '"']),
        (Lang::En, EN, ['«', '»', '"']),
    ] {
        for (id, text) in every_rendering(lang, src) {
            // A PDN tag is quoted as PDN writes it: SetUp "1".
            let text = text.replace("SetUp \"1\"", "SetUp 1");
            assert!(
                !text.contains(foreign),
                "{id} ({lang:?}): quoted the other language's way: {text:?}"
            );
        }
        // Typed text in a message: quoted.
        for var in ["text", "value", "command"] {
            let placeable = format!("{{ ${var} }}");
            for (at, _) in src.match_indices(&placeable) {
                let before = src[..at].chars().last();
                assert!(
                    matches!(before, Some('«' | '“' | '/')),
                    "{lang:?}: {placeable} unquoted: {:?}",
                    &src[at.saturating_sub(40)..at + placeable.len()]
                );
            }
        }
    }
}

/// English words do not slip into the Spanish texts ("tu rating", "damas inglesas
/// (checkers)"); names of things that have no Spanish word (PDN, Buchholz, Elo) are fine.
#[test]
fn spanish_texts_have_no_english_words() {
    const ENGLISH: [&str; 24] = [
        "rating",
        "checkers",
        "the",
        "and",
        "of",
        "is",
        "to",
        "move",
        "moves",
        "game",
        "games",
        "player",
        "players",
        "board",
        "draw",
        "king",
        "kings",
        "puzzle",
        "streak",
        "score",
        "round",
        "standings",
        "bye",
        "white",
    ];
    for (id, text) in every_rendering(Lang::Es, ES) {
        for word in unquoted(&text).split(|c: char| !c.is_alphanumeric() && c != '-') {
            assert!(
                !ENGLISH.contains(&word.to_lowercase().as_str()),
                "{id}: English «{word}» in {text:?}"
            );
        }
    }
}

/// Lists read as a person says them: alternatives with "o"/"or" ("u" before 8 and 11 in
/// Spanish), runs of squares as ranges.
#[test]
fn lists_and_ranges_read_naturally() {
    let list = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        i18n::or_list(Lang::Es, &list(&["26x19", "27x18"])),
        "26x19 o 27x18"
    );
    assert_eq!(
        i18n::or_list(Lang::Es, &list(&["26x19", "27x18", "11x18"])),
        "26x19, 27x18 u 11x18"
    );
    assert_eq!(
        i18n::or_list(Lang::En, &list(&["a", "b", "c"])),
        "a, b or c"
    );
    assert_eq!(i18n::and_list(Lang::Es, &list(&["14", "6"])), "14 y 6");
    assert_eq!(i18n::or_list(Lang::Es, &list(&["15x22"])), "15x22");
    let squares: Vec<u8> = (1..=12).chain([14, 15, 20, 21, 22]).collect();
    assert_eq!(
        i18n::number_ranges(Lang::Es, &squares),
        "1 a 12, 14, 15, 20 a 22"
    );
    assert_eq!(
        i18n::number_ranges(Lang::En, &squares),
        "1 to 12, 14, 15, 20 to 22"
    );
}
