//! The board picture, checked by decoding the PNG and reading its pixels.

use damas::engine::{explain, Color, Explanation, Move, Piece, Position, Role, Square, Variant};
use damas::render::{
    palette::{self, Rgb},
    read_square, render_png, BoardView, Caption, Layout,
};
use image::RgbaImage;
use rand::{rngs::SmallRng, Rng, SeedableRng};

const PERSPECTIVES: [Color; 2] = [Color::White, Color::Black];

fn sq(n: u8) -> Square {
    Square::new(n).expect("test squares are 1..=32")
}

fn decode(png: &[u8]) -> RgbaImage {
    image::load_from_memory(png)
        .expect("a valid PNG")
        .to_rgba8()
}

fn picture(view: &BoardView) -> RgbaImage {
    decode(&render_png(view).expect("render"))
}

/// The board after `last_move` (`after`), that move shown.
fn picture_after(after: &Position, perspective: Color, last_move: Move) -> RgbaImage {
    let mut view = BoardView::new(after, perspective);
    view.last_move = Some(last_move);
    picture(&view)
}

fn px(img: &RgbaImage, x: u32, y: u32) -> Rgb {
    let p = img.get_pixel(x, y).0;
    [p[0], p[1], p[2]]
}

fn near(a: Rgb, b: Rgb, tol: f32) -> bool {
    palette::distance(a, b) <= tol
}

/// Whether some pixel within `radius` of (x, y) is near `color`.
fn any_near(img: &RgbaImage, (x, y): (f32, f32), radius: i32, color: Rgb, tol: f32) -> bool {
    (-radius..=radius).any(|dy| {
        (-radius..=radius).any(|dx| {
            let (xx, yy) = (x as i32 + dx, y as i32 + dy);
            xx >= 0
                && yy >= 0
                && (xx as u32) < img.width()
                && (yy as u32) < img.height()
                && near(px(img, xx as u32, yy as u32), color, tol)
        })
    })
}

fn fen(variant: Variant, f: &str) -> Position {
    Position::from_fen(variant, f).expect("test FENs are valid")
}

/// A position after `plies` random legal moves from the start (fixed seed), and the last move.
fn random_game(variant: Variant, seed: u64, plies: usize) -> (Position, Option<Move>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Position::start(variant);
    let mut last = None;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        pos = pos.apply(&mv);
        last = Some(mv);
    }
    (pos, last)
}

/// Positions with kings of both colours (men kept off their crowning rows).
fn kings_position(variant: Variant) -> Position {
    match variant {
        Variant::English => fen(variant, "B:W20,24,K3,K11:B6,7,K14,K27"),
        _ => fen(variant, "W:W6,7,K14,K27:B20,24,K3,K11"),
    }
}

fn assert_position_shown(img: &RgbaImage, pos: &Position, perspective: Color, what: &str) {
    for s in Square::all() {
        assert_eq!(
            read_square(img, pos.variant(), perspective, s),
            pos.piece_at(s),
            "{what}: square {s} ({} from {perspective:?})",
            pos.variant()
        );
    }
}

#[test]
fn every_square_shows_its_piece_in_every_variant_and_perspective() {
    for variant in Variant::ALL {
        let (mid, _) = random_game(variant, 7, 24);
        let positions = [
            ("start", Position::start(variant)),
            ("kings", kings_position(variant)),
            ("mid-game", mid),
        ];
        for (name, pos) in &positions {
            for perspective in PERSPECTIVES {
                let img = picture(&BoardView::new(pos, perspective));
                assert_eq!(img.dimensions(), Layout::size());
                assert_position_shown(&img, pos, perspective, name);
            }
        }
        // The test positions do hold every kind of piece.
        let kinds: Vec<Piece> = Square::all()
            .filter_map(|s| positions[1].1.piece_at(s))
            .collect();
        for color in PERSPECTIVES {
            for role in [Role::Man, Role::King] {
                assert!(kinds.contains(&Piece { color, role }));
            }
        }
    }
}

#[test]
fn pieces_differ_by_brightness_and_shape_not_hue_alone() {
    // Light pieces stand out from the playing squares, dark pieces through their light ring,
    // and the crown from the body it sits on.
    assert!(palette::contrast(palette::WHITE_BODY, palette::DARK_SQUARE) >= 3.0);
    assert!(palette::contrast(palette::BLACK_OUTLINE, palette::DARK_SQUARE) >= 3.0);
    assert!(palette::contrast(palette::WHITE_BODY, palette::BLACK_BODY) >= 7.0);
    assert!(palette::contrast(palette::WHITE_CROWN, palette::WHITE_BODY) >= 4.5);
    assert!(palette::contrast(palette::BLACK_CROWN, palette::BLACK_BODY) >= 4.5);
    assert!(palette::contrast(palette::NUMBER_TEXT, palette::NUMBER_HALO) >= 7.0);
    // A king and a man of one colour differ in a good part of their area.
    let mut pos = Position::empty(Variant::Spanish, Color::White);
    let (man, king) = (sq(14), sq(19));
    pos.set_piece(
        man,
        Some(Piece {
            color: Color::White,
            role: Role::Man,
        }),
    );
    pos.set_piece(
        king,
        Some(Piece {
            color: Color::White,
            role: Role::King,
        }),
    );
    let img = picture(&BoardView::new(&pos, Color::White));
    let (mx, my) = Layout::square_center(Variant::Spanish, Color::White, man);
    let (kx, ky) = Layout::square_center(Variant::Spanish, Color::White, king);
    let r = (Layout::PIECE_RADIUS * 0.8) as i32;
    let (mut differ, mut total) = (0, 0);
    for dy in -r..=r {
        for dx in -r..=r {
            if dx * dx + dy * dy > r * r {
                continue;
            }
            total += 1;
            let a = px(&img, (mx as i32 + dx) as u32, (my as i32 + dy) as u32);
            let b = px(&img, (kx as i32 + dx) as u32, (ky as i32 + dy) as u32);
            if palette::distance(a, b) > 100.0 {
                differ += 1;
            }
        }
    }
    assert!(
        differ * 5 >= total,
        "king and man differ on {differ} of {total} pixels"
    );
}

/// The cells of RULES.md's diagrams (White at the bottom): (column, row from the top).
fn diagram_cells(variant: Variant) -> Vec<(u8, (u32, u32))> {
    let diagram = match variant {
        Variant::English => {
            " .  1  .  2  .  3  .  4
              5  .  6  .  7  .  8  .
              .  9  . 10  . 11  . 12
             13  . 14  . 15  . 16  .
              . 17  . 18  . 19  . 20
             21  . 22  . 23  . 24  .
              . 25  . 26  . 27  . 28
             29  . 30  . 31  . 32  ."
        }
        _ => {
            "32  . 31  . 30  . 29  .
              . 28  . 27  . 26  . 25
             24  . 23  . 22  . 21  .
              . 20  . 19  . 18  . 17
             16  . 15  . 14  . 13  .
              . 12  . 11  . 10  .  9
              8  .  7  .  6  .  5  .
              .  4  .  3  .  2  .  1"
        }
    };
    let mut cells = vec![];
    for (row, line) in diagram.lines().enumerate() {
        for (col, tok) in line.split_whitespace().enumerate() {
            if let Ok(n) = tok.parse::<u8>() {
                cells.push((n, (col as u32, row as u32)));
            }
        }
    }
    cells
}

#[test]
fn squares_sit_where_the_rules_diagrams_put_them() {
    for variant in Variant::ALL {
        let cells = diagram_cells(variant);
        assert_eq!(cells.len(), 32);
        for (n, (col, row)) in cells {
            assert_eq!(
                Layout::cell(variant, Color::White, sq(n)),
                (col, row),
                "{variant} {n}"
            );
            assert_eq!(
                Layout::cell(variant, Color::Black, sq(n)),
                (7 - col, 7 - row),
                "{variant} {n}"
            );
        }
    }
    // The brief's landmarks: Spanish square 1 bottom right, English square 1 top row, column 2.
    assert_eq!(Layout::cell(Variant::Spanish, Color::White, sq(1)), (7, 7));
    assert_eq!(Layout::cell(Variant::English, Color::White, sq(1)), (1, 0));
}

/// The number's ink in a square's number region: a bitmap of pixels close to the text colour.
fn number_ink(img: &RgbaImage, variant: Variant, perspective: Color, s: Square) -> Vec<bool> {
    let r = Layout::number_rect(variant, perspective, s);
    let mut ink = vec![];
    for y in r.y..r.y + r.h {
        for x in r.x..r.x + r.w {
            ink.push(near(px(img, x, y), palette::NUMBER_TEXT, 30.0));
        }
    }
    ink
}

#[test]
fn every_playing_square_carries_its_number() {
    let mut reference: Vec<Vec<bool>> = vec![];
    for variant in Variant::ALL {
        for perspective in PERSPECTIVES {
            // Pieces on some squares too: the number stays readable over a piece.
            let pos = Position::start(variant);
            let img = picture(&BoardView::new(&pos, perspective));
            let empty = Position::empty(variant, Color::White);
            let bare = picture(&BoardView::new(&empty, perspective));
            for s in Square::all() {
                let ink = number_ink(&bare, variant, perspective, s);
                assert!(
                    ink.iter().filter(|&&b| b).count() >= 12,
                    "{variant} {s}: no number"
                );
                // The same number, whatever the layout: square n shows one picture everywhere.
                if reference.len() < 32 {
                    reference.push(ink);
                } else {
                    assert_eq!(
                        reference[s.index()],
                        ink,
                        "{variant} {perspective:?} square {s}"
                    );
                }
                // Over a dark piece too (light pieces are close to the text colour themselves).
                if pos.piece_at(s).is_some_and(|p| p.color == Color::Black) {
                    let over_piece = number_ink(&img, variant, perspective, s);
                    assert!(
                        over_piece.iter().filter(|&&b| b).count() >= 12,
                        "{variant} {s} over a piece"
                    );
                }
            }
            // Unused squares carry no number.
            for col in 0..8 {
                for row in 0..8 {
                    if Layout::square_at_cell(variant, perspective, col, row).is_some() {
                        continue;
                    }
                    let r = Layout::cell_rect(col, row);
                    let (bw, bh) = Layout::NUMBER_BOX;
                    let inked = (r.y..r.y + bh)
                        .flat_map(|y| (r.x..r.x + bw).map(move |x| (x, y)))
                        .filter(|&(x, y)| near(px(&bare, x, y), palette::NUMBER_TEXT, 30.0))
                        .count();
                    assert_eq!(inked, 0, "{variant} light cell {col},{row}");
                }
            }
        }
    }
    // 32 different pictures, and they are decimal numerals: the ink on squares 10-32 is the
    // ink of the squares of their two digits side by side (square 1 shows the first digit of
    // 10-19, square 2 that of 20-29...), so each square shows its own number.
    for a in 0..32 {
        for b in a + 1..32 {
            assert_ne!(
                reference[a],
                reference[b],
                "squares {} and {} look alike",
                a + 1,
                b + 1
            );
        }
    }
    let w = Layout::number_rect(Variant::Spanish, Color::White, sq(1)).w;
    let points = |ink: &[bool]| -> Vec<(u32, u32)> {
        (0..ink.len() as u32)
            .filter(|&i| ink[i as usize])
            .map(|i| (i % w, i / w))
            .collect()
    };
    for n in 10..=32usize {
        let ink = points(&reference[n - 1]);
        let first_col = ink.iter().map(|p| p.0).min().unwrap_or(0);
        // The digits are apart: the first empty column after the first digit splits them.
        let split = (first_col..w)
            .find(|&c| !ink.iter().any(|p| p.0 == c))
            .unwrap_or(w);
        let (left, right): (Ink, Ink) = ink.iter().partition(|p| p.0 < split);
        assert_eq!(left, points(&reference[n / 10 - 1]), "first digit of {n}");
        if n % 10 != 0 {
            let digit = points(&reference[n % 10 - 1]);
            let shift = right.iter().map(|p| p.0).min().unwrap_or(0)
                - digit.iter().map(|p| p.0).min().unwrap_or(0);
            let shifted: Vec<(u32, u32)> = digit.iter().map(|&(x, y)| (x + shift, y)).collect();
            let mut right = right;
            right.sort_by_key(|p| (p.1, p.0));
            let mut shifted = shifted;
            shifted.sort_by_key(|p| (p.1, p.0));
            assert_eq!(right, shifted, "second digit of {n}");
        }
    }
}

/// Inked pixels, as (column, row) in a number region.
type Ink = Vec<(u32, u32)>;

/// Tinted squares, read at each square's tint probe.
fn tinted(img: &RgbaImage, variant: Variant, perspective: Color, color: Rgb) -> Vec<u8> {
    Square::all()
        .filter(|&s| {
            let (x, y) = Layout::tint_probe(variant, perspective, s);
            near(px(img, x, y), color, 12.0)
        })
        .map(|s| s.number())
        .collect()
}

#[test]
fn last_move_tints_from_and_to_and_draws_the_capture() {
    // Spanish: the black king on 20 takes 15 and 10 (20x6x13).
    let before = fen(
        Variant::Spanish,
        "B:W1,3,4,9,10,15,17:B22,24,25,27-30,32,K20",
    );
    let mv = before.parse_move("20x6x13").expect("legal");
    let after = before.apply(&mv);
    for perspective in PERSPECTIVES {
        let img = picture_after(&after, perspective, mv);
        let v = Variant::Spanish;
        assert_eq!(
            tinted(&img, v, perspective, palette::LAST_MOVE_FRAME),
            vec![13, 20]
        );
        assert_position_shown(&img, &after, perspective, "after 20x6x13");
        // A cross where each taken piece stood, nowhere else.
        for s in Square::all() {
            let c = Layout::square_center(v, perspective, s);
            let crossed = any_near(&img, c, 4, palette::CAPTURED_CROSS, 20.0);
            assert_eq!(crossed, mv.captured().contains(s), "cross on {s}");
        }
        // The path line through the landing squares, between the square centres.
        let path: Vec<(f32, f32)> = mv
            .path_with_start()
            .into_iter()
            .map(|s| Layout::square_center(v, perspective, s))
            .collect();
        for w in path.windows(2) {
            for t in [0.15, 0.35, 0.65, 0.85] {
                let p = (
                    w[0].0 + (w[1].0 - w[0].0) * t,
                    w[0].1 + (w[1].1 - w[0].1) * t,
                );
                let on_ghost = mv.captured().squares().any(|s| {
                    let c = Layout::square_center(v, perspective, s);
                    (c.0 - p.0).hypot(c.1 - p.1) < Layout::PIECE_RADIUS + 2.0
                });
                if !on_ghost {
                    assert!(
                        any_near(&img, p, 1, palette::LAST_PATH, 20.0),
                        "path at {p:?}"
                    );
                }
            }
        }
        // Without a last move: no tint, no cross.
        let plain = picture(&BoardView::new(&after, perspective));
        assert!(tinted(&plain, v, perspective, palette::LAST_MOVE_FRAME).is_empty());
        assert_eq!(
            tinted(&plain, v, perspective, palette::DARK_SQUARE).len(),
            32
        );
    }
}

#[test]
fn a_plain_last_move_tints_only_its_two_squares() {
    let before = Position::start(Variant::English);
    let mv = before.parse_move("11-15").expect("legal");
    let after = before.apply(&mv);
    for perspective in PERSPECTIVES {
        let img = picture_after(&after, perspective, mv);
        assert_eq!(
            tinted(
                &img,
                Variant::English,
                perspective,
                palette::LAST_MOVE_FRAME
            ),
            vec![11, 15]
        );
        assert_position_shown(&img, &after, perspective, "after 11-15");
    }
}

/// Squares whose piece is circled: the ring colour all around the piece.
fn circled(img: &RgbaImage, variant: Variant, perspective: Color) -> Vec<u8> {
    Square::all()
        .filter(|&s| {
            let (cx, cy) = Layout::square_center(variant, perspective, s);
            let r = Layout::PIECE_RADIUS + 4.0;
            // Eight points around, skipping the top-left one where the number is drawn.
            let hits = (0..8)
                .filter(|&k| k != 5)
                .filter(|&k| {
                    let a = k as f32 * std::f32::consts::FRAC_PI_4;
                    any_near(
                        img,
                        (cx + r * a.cos(), cy + r * a.sin()),
                        1,
                        palette::MUST_CAPTURE_RING,
                        30.0,
                    )
                })
                .count();
            hits >= 6
        })
        .map(|s| s.number())
        .collect()
}

#[test]
fn pieces_that_must_capture_are_circled_and_no_others() {
    // Spanish, White to move: 14 can take 18, 15 can take 19; 9 and 1 cannot capture.
    let pos = fen(Variant::Spanish, "W:W1,9,14,15:B18,19,30");
    let mut expected: Vec<u8> = pos
        .legal_moves()
        .iter()
        .map(|m| m.from().number())
        .collect();
    expected.sort();
    expected.dedup();
    assert_eq!(expected, vec![14, 15]);
    for perspective in PERSPECTIVES {
        let mut view = BoardView::new(&pos, perspective);
        view.highlight_captures = true;
        let img = picture(&view);
        assert_eq!(circled(&img, Variant::Spanish, perspective), expected);
        assert_position_shown(&img, &pos, perspective, "with circles");
        view.highlight_captures = false;
        assert!(circled(&picture(&view), Variant::Spanish, perspective).is_empty());
    }
    // No capture available: nothing is circled even when asked.
    let start = Position::start(Variant::Portuguese);
    let mut view = BoardView::new(&start, Color::White);
    view.highlight_captures = true;
    assert!(circled(&picture(&view), Variant::Portuguese, Color::White).is_empty());
}

fn dotted(img: &RgbaImage, variant: Variant, perspective: Color) -> Vec<u8> {
    Square::all()
        .filter(|&s| {
            let c = Layout::square_center(variant, perspective, s);
            any_near(img, c, 2, palette::REACH_DOT, 20.0)
        })
        .map(|s| s.number())
        .collect()
}

#[test]
fn reachable_squares_of_one_piece_are_marked() {
    let cases = [
        // A flying king on the long diagonal, and a man beside it.
        (fen(Variant::Spanish, "W:W5,K14:B30"), 14),
        (fen(Variant::Spanish, "W:W5,K14:B30"), 5),
        // An English man in the start position.
        (Position::start(Variant::English), 10),
    ];
    for (pos, from) in cases {
        let variant = pos.variant();
        let mut expected: Vec<u8> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.from() == sq(from))
            .map(|m| m.to().number())
            .collect();
        expected.sort();
        assert!(!expected.is_empty());
        for perspective in PERSPECTIVES {
            let mut view = BoardView::new(&pos, perspective);
            view.reachable_from = Some(sq(from));
            let img = picture(&view);
            assert_eq!(
                dotted(&img, variant, perspective),
                expected,
                "{variant} from {from}"
            );
            assert_eq!(
                tinted(&img, variant, perspective, palette::REACH_ORIGIN_SQUARE),
                vec![from]
            );
            assert_position_shown(&img, &pos, perspective, "with reachable squares");
        }
    }
}

/// Share of the points along a capture's drawn path that show `color`, skipping the ends.
fn share_along(img: &RgbaImage, pts: &[(f32, f32)], color: Rgb) -> f32 {
    let (mut hits, mut total) = (0, 0);
    for w in pts.windows(2) {
        let len = (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1);
        let mut d = 26.0;
        while d < len - 26.0 {
            let t = d / len;
            let p = (
                w[0].0 + (w[1].0 - w[0].0) * t,
                w[0].1 + (w[1].1 - w[0].1) * t,
            );
            total += 1;
            if any_near(img, p, 1, color, 30.0) {
                hits += 1;
            }
            d += 2.0;
        }
    }
    hits as f32 / total.max(1) as f32
}

fn distance_to_segment(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy)
}

#[test]
fn explanation_arrows_tell_allowed_from_excluded() {
    // Spanish, Black to move: the king on 2 takes three (allowed, law of quantity), the king on
    // 16 takes two (excluded).
    let pos = fen(Variant::Spanish, "B:W1,5,7,8,13:B22,24-26,29-32,K2,K16");
    let exp: Explanation = explain(&pos, None);
    assert!(exp.captures.iter().any(|c| c.allowed) && exp.captures.iter().any(|c| !c.allowed));
    for perspective in PERSPECTIVES {
        let mut view = BoardView::new(&pos, perspective);
        view.explanation = Some(&exp);
        let img = picture(&view);
        let centre = |s: Square| Layout::square_center(Variant::Spanish, perspective, s);
        let mut on_a_path = damas::engine::Bitboard::EMPTY;
        for c in &exp.captures {
            let pts: Vec<(f32, f32)> = c.mv.path_with_start().into_iter().map(centre).collect();
            let (color, other) = if c.allowed {
                (palette::ALLOWED_ARROW, palette::EXCLUDED_ARROW)
            } else {
                (palette::EXCLUDED_ARROW, palette::ALLOWED_ARROW)
            };
            let share = share_along(&img, &pts, color);
            if c.allowed {
                // Solid.
                assert!(share > 0.9, "{} allowed: {share}", c.notation);
            } else {
                // Dashed: mostly there, with gaps.
                assert!(
                    share > 0.4 && share < 0.85,
                    "{} excluded: {share}",
                    c.notation
                );
            }
            assert!(
                share_along(&img, &pts, other) < 0.2,
                "{} in the wrong colour",
                c.notation
            );
            // Every square the arrow crosses, landing or not.
            for w in pts.windows(2) {
                for s in Square::all() {
                    if distance_to_segment(centre(s), w[0], w[1]) < 2.0 {
                        on_a_path = on_a_path.with(s);
                    }
                }
            }
        }
        // Away from the paths, no arrow colour at the centre of any square.
        for s in Square::all().filter(|&s| !on_a_path.contains(s)) {
            for color in [palette::ALLOWED_ARROW, palette::EXCLUDED_ARROW] {
                assert!(
                    !any_near(&img, centre(s), 6, color, 30.0),
                    "arrow colour on {s}"
                );
            }
        }
        // The pieces stay readable under the arrows.
        assert_position_shown(&img, &pos, perspective, "explanation");
    }
}

fn caption_right_margin_is_clear(img: &RgbaImage) -> bool {
    (0..Layout::CAPTION_HEIGHT).all(|y| {
        (Layout::WIDTH - 10..Layout::WIDTH).all(|x| px(img, x, y) == palette::CAPTION_BACKGROUND)
    })
}

#[test]
fn odd_names_never_break_the_picture() {
    let pos = Position::start(Variant::Spanish);
    let long = "W".repeat(200);
    let names = [
        "",
        "👑🔥 alice 👩‍👩‍👧‍👦 🇪🇸",
        "مرحبا بالعالم — שלום",
        "\u{202E}evil\u{202C} \u{200B}zero\u{2060}width",
        "tab\tnew\nline\u{0}\u{7}\u{1b}[31mred",
        "e\u{301}\u{301}\u{301} ﷽ 𝕬𝖑𝖎𝖈𝖊 ⛁⛃ 中文 한국어",
        long.as_str(),
    ];
    let mut plain_view = BoardView::new(&pos, Color::White);
    plain_view.caption = Caption {
        title: "Spanish draughts".into(),
        players: "alice (White) vs bob (Black)".into(),
        status: "White to move".into(),
    };
    let plain = picture(&plain_view);
    for name in names {
        let mut view = BoardView::new(&pos, Color::White);
        view.caption = Caption {
            title: name.to_string(),
            players: format!("{name} (White) vs {name} (Black)"),
            status: name.repeat(3),
        };
        let img = picture(&view);
        assert_eq!(img.dimensions(), Layout::size(), "{name:?}");
        // Text is cut before the right edge, and the board is untouched.
        assert!(
            caption_right_margin_is_clear(&img),
            "{name:?} runs off the edge"
        );
        let board_rows = Layout::BOARD_TOP..Layout::HEIGHT;
        assert!(
            board_rows
                .clone()
                .all(|y| (0..Layout::WIDTH).all(|x| img.get_pixel(x, y) == plain.get_pixel(x, y))),
            "{name:?} changed the board"
        );
    }
}

#[test]
fn random_games_render_and_read_back_in_every_variant() {
    for variant in Variant::ALL {
        for seed in 0..3u64 {
            let mut rng = SmallRng::seed_from_u64(seed * 31 + 5);
            let mut pos = Position::start(variant);
            let mut last: Option<Move> = None;
            for ply in 0..90 {
                let moves = pos.legal_moves();
                let perspective = if rng.gen_bool(0.5) {
                    Color::White
                } else {
                    Color::Black
                };
                let exp = (ply % 7 == 3).then(|| explain(&pos, None));
                let reachable = pos.pieces(pos.side_to_move()).squares().next();
                let view = BoardView {
                    position: &pos,
                    perspective,
                    last_move: last,
                    highlight_captures: rng.gen_bool(0.5),
                    reachable_from: if rng.gen_bool(0.3) { reachable } else { None },
                    explanation: exp.as_ref(),
                    caption: Caption {
                        title: variant.to_string(),
                        players: format!("seed {seed}"),
                        status: format!("ply {ply}"),
                    },
                };
                let png = render_png(&view).expect("render");
                if ply % 3 == 0 {
                    assert_position_shown(
                        &decode(&png),
                        &pos,
                        perspective,
                        &format!("seed {seed} ply {ply}"),
                    );
                }
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                pos = pos.apply(&mv);
                last = Some(mv);
            }
        }
    }
}

#[test]
fn cli_draws_the_position_after_the_last_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("board.png");
    let status = crate::support::cli::command()
        .args([
            "render",
            "--variant",
            "english",
            "--last-move",
            "11-15",
            "--perspective",
            "black",
            "--out",
        ])
        .arg(&out)
        .status()
        .expect("run damas");
    assert!(status.success());
    let img = decode(&std::fs::read(&out).expect("written"));
    let before = Position::start(Variant::English);
    let after = before.apply(&before.parse_move("11-15").expect("legal"));
    assert_position_shown(&img, &after, Color::Black, "cli");
    assert_eq!(
        tinted(
            &img,
            Variant::English,
            Color::Black,
            palette::LAST_MOVE_FRAME
        ),
        vec![11, 15]
    );

    for bad in [
        vec!["--fen", "W:W1-12:B21-99"],
        vec!["--variant", "english", "--last-move", "11-17"],
        vec!["--variant", "chess"],
        vec!["--perspective", "up"],
    ] {
        let o = crate::support::cli::command()
            .arg("render")
            .args(&bad)
            .arg("--out")
            .arg(dir.path().join("bad.png"))
            .output()
            .expect("run damas");
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("error"),
            "{bad:?}"
        );
        assert!(!dir.path().join("bad.png").exists());
    }
}

#[test]
fn characters_the_font_lacks_are_left_out_not_drawn_as_boxes() {
    let pos = Position::start(Variant::Spanish);
    let caption_band = |players: &str| {
        let mut view = BoardView::new(&pos, Color::White);
        view.caption = Caption {
            title: "Damas españolas".into(),
            players: players.into(),
            status: "Jugada 1 · juegan las Blancas".into(),
        };
        let img = picture(&view);
        (0..Layout::CAPTION_HEIGHT)
            .flat_map(|y| (0..Layout::WIDTH).map(move |x| (x, y)))
            .map(|(x, y)| px(&img, x, y))
            .collect::<Vec<Rgb>>()
    };
    let plain = caption_band("Ñandú (Blancas) contra bob (Negras)");
    // Emoji (with joiners, flags and variation selectors) and CJK are not in the font.
    let decorated = caption_band("👑🔥 Ñandú 👩‍👩‍👧 (Blancas) contra 🇪🇸 bob 🦀 中文 (Negras)");
    assert!(plain == decorated, "the missing characters left a mark");
    // The comparison can tell names apart.
    assert!(plain != caption_band("Ñandu (Blancas) contra bob (Negras)"));
}

/// Square numbers read on every fill a playing square can have, by WCAG AA's measure for
/// text (4.5:1), before counting the dark halo drawn around them.
#[test]
fn square_numbers_meet_wcag_aa_on_every_square_fill() {
    for fill in palette::NUMBERED_SQUARE_FILLS {
        let ratio = palette::contrast(palette::NUMBER_TEXT, fill);
        assert!(ratio >= 4.5, "numbers on {fill:?}: {ratio:.2}:1");
    }
    assert!(palette::contrast(palette::NUMBER_TEXT, palette::NUMBER_HALO) >= 7.0);
    // The last move's squares keep their own fill inside the frame (see below).
    assert!(palette::NUMBERED_SQUARE_FILLS.contains(&palette::DARK_SQUARE));
}

/// A colour as a person with deuteranopia sees it (Machado, Oliveira and Fernandes 2009,
/// severity 1, applied to linear RGB).
fn deuteranopia(c: Rgb) -> Rgb {
    const M: [[f32; 3]; 3] = [
        [0.367_322, 0.860_646, -0.227_968],
        [0.280_085, 0.672_501, 0.047_413],
        [-0.011_820, 0.042_940, 0.968_881],
    ];
    let lin = |v: u8| {
        let v = v as f32 / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    let srgb = |v: f32| {
        let v = v.clamp(0.0, 1.0);
        let v = if v <= 0.003_130_8 {
            v * 12.92
        } else {
            1.055 * v.powf(1.0 / 2.4) - 0.055
        };
        (v * 255.0).round() as u8
    };
    let l = [lin(c[0]), lin(c[1]), lin(c[2])];
    let row = |r: [f32; 3]| srgb(r[0] * l[0] + r[1] * l[1] + r[2] * l[2]);
    [row(M[0]), row(M[1]), row(M[2])]
}

/// The whole picture as a person with deuteranopia sees it.
fn seen_with_deuteranopia(img: &RgbaImage) -> RgbaImage {
    let mut out = img.clone();
    for p in out.pixels_mut() {
        let [r, g, b] = deuteranopia([p[0], p[1], p[2]]);
        *p = image::Rgba([r, g, b, p[3]]);
    }
    out
}

/// Squares marked with a frame of `frame`: its colour along all four sides (away from the
/// number in the top-left corner), and the square's own `fill` inside it, in the corner that
/// no piece or ring covers.
fn framed(img: &RgbaImage, variant: Variant, perspective: Color, frame: Rgb, fill: Rgb) -> Vec<u8> {
    let edge = damas::render::LAST_MOVE_FRAME_WIDTH / 2;
    Square::all()
        .filter(|&s| {
            let r = Layout::square_rect(variant, perspective, s);
            let sides = [
                (r.x + r.w - 1 - edge, r.y + r.h / 2),
                (r.x + r.w / 2, r.y + r.h - 1 - edge),
                (r.x + edge, r.y + r.h * 3 / 4),
                (r.x + r.w * 3 / 4, r.y + edge),
            ];
            let on_frame = sides.iter().all(|&(x, y)| near(px(img, x, y), frame, 30.0));
            let inside = (r.x + r.w - 11, r.y + r.h - 11);
            on_frame && near(px(img, inside.0, inside.1), fill, 30.0)
        })
        .map(|s| s.number())
        .collect()
}

/// Colour is never the only signal: on a board seen with deuteranopia, the last move's
/// squares are still found by their frame (an outline, the square's own colour inside) and the
/// pieces that must capture by their ring, each where it belongs and nowhere else, and both
/// stand out from the board by brightness.
#[test]
fn last_move_frames_and_capture_rings_differ_by_shape_under_deuteranopia() {
    // Black has just played 23-19; White must capture with 14 or 15.
    let pos = fen(Variant::Spanish, "W:W1,9,14,15:B18,19,30");
    let last = Move::step(sq(23), sq(19));
    let frame = deuteranopia(palette::LAST_MOVE_FRAME);
    let square = deuteranopia(palette::DARK_SQUARE);
    let ring = deuteranopia(palette::MUST_CAPTURE_RING);
    // Brightness alone sets each mark apart from what it is drawn on.
    assert!(palette::contrast(frame, square) >= 3.0);
    assert!(palette::contrast(ring, deuteranopia(palette::HALO)) >= 3.0);
    for perspective in PERSPECTIVES {
        let mut view = BoardView::new(&pos, perspective);
        view.last_move = Some(last);
        view.highlight_captures = true;
        let seen = seen_with_deuteranopia(&picture(&view));
        let v = Variant::Spanish;
        assert_eq!(framed(&seen, v, perspective, frame, square), vec![19, 23]);
        let ringed: Vec<u8> = Square::all()
            .filter(|&s| {
                let (cx, cy) = Layout::square_center(v, perspective, s);
                let r = Layout::PIECE_RADIUS + 4.0;
                (0..8)
                    .filter(|&k| k != 5)
                    .filter(|&k| {
                        let a = k as f32 * std::f32::consts::FRAC_PI_4;
                        any_near(&seen, (cx + r * a.cos(), cy + r * a.sin()), 1, ring, 30.0)
                    })
                    .count()
                    >= 6
            })
            .map(|s| s.number())
            .collect();
        assert_eq!(ringed, vec![14, 15], "{perspective:?}");
    }
}
