//! The renderer: everything that never changes is drawn once when it is built (a board
//! background per variant and point of view, the piece sprites, the square numbers); a picture
//! then only copies a background and composites what the view asks for.

use super::canvas::{self, blit, blit_centered, premultiplied, supersampled, Sprite};
use super::encode::Palette;
use super::layout::{Layout, Rect};
use super::palette::{self, Rgb};
use super::sprites;
use super::text::Text;
use super::{BoardView, Caption, RenderError};
use crate::engine::{
    explain, Bitboard, CaptureOption, Color, Move, Piece, Position, Role, Square, Variant,
};
use ab_glyph::PxScale;
use image::RgbImage;
use imageproc::drawing::{draw_filled_rect_mut, draw_text_mut, text_size};

/// Caption lines: (font size, baseline from the top of the picture).
pub(super) const TITLE_LINE: (f32, f32) = (24.0, 32.0);
pub(super) const PLAYERS_LINE: (f32, f32) = (18.0, 61.0);
pub(super) const STATUS_LINE: (f32, f32) = (18.0, 88.0);
pub(super) const CAPTION_MARGIN: f32 = 14.0;
/// The last capture's path: the half widths of its line and of its halo, in pixels.
pub(super) const CAPTURE_PATH: (f32, f32) = (4.0, 5.5);
/// Width of the frame around the last move's squares, in pixels.
pub const LAST_MOVE_FRAME_WIDTH: u32 = 6;
/// Size of the labels on explanation arrows.
const LABEL_SIZE: f32 = 17.0;

pub struct Renderer {
    pub(crate) text: Text,
    /// Indexed by [`piece_index`].
    pieces: [Sprite; 4],
    /// Square numbers 1..=32 at index 0..32.
    numbers: Vec<Sprite>,
    capture_cross: Sprite,
    must_capture_ring: Sprite,
    reach_dot: Sprite,
    /// The path of the last capture.
    capture_path: RoundLine,
    /// The shaft of an arrow for an allowed capture (and for a better move in a review).
    allowed_shaft: RoundLine,
    /// The shaft of an arrow for the move played, in a review.
    played_shaft: RoundLine,
    /// The empty picture (caption band and squares) per variant and point of view, indexed by
    /// [`background_index`].
    backgrounds: Vec<RgbImage>,
    /// The PNG palette, chosen from sample pictures.
    pub(crate) palette: Palette,
}

fn piece_index(p: Piece) -> usize {
    (p.color == Color::Black) as usize * 2 + (p.role == Role::King) as usize
}

fn background_index(variant: Variant, perspective: Color) -> usize {
    let v = Variant::ALL.iter().position(|&x| x == variant).unwrap_or(0);
    v * 2 + (perspective == Color::Black) as usize
}

impl Renderer {
    pub fn new() -> Result<Renderer, RenderError> {
        let text = Text::new().map_err(|_| RenderError::Font)?;
        let piece = |color, role| sprites::piece(Piece { color, role });
        let pieces = [
            piece(Color::White, Role::Man),
            piece(Color::White, Role::King),
            piece(Color::Black, Role::Man),
            piece(Color::Black, Role::King),
        ];
        let numbers = Square::all()
            .map(|sq| sprites::number(&text, sq.number()))
            .collect();
        let mut backgrounds = Vec::with_capacity(6);
        for variant in Variant::ALL {
            for perspective in [Color::White, Color::Black] {
                debug_assert_eq!(backgrounds.len(), background_index(variant, perspective));
                backgrounds.push(draw_background(variant, perspective));
            }
        }
        let mut renderer = Renderer {
            text,
            pieces,
            numbers,
            capture_cross: sprites::capture_cross(),
            must_capture_ring: sprites::must_capture_ring(),
            reach_dot: sprites::reach_dot(),
            capture_path: RoundLine::new(
                (CAPTURE_PATH.0, palette::LAST_PATH),
                (CAPTURE_PATH.1, palette::PATH_HALO),
            ),
            allowed_shaft: RoundLine::new(
                (ArrowStyle::ALLOWED.half, ArrowStyle::ALLOWED.color),
                (ArrowStyle::ALLOWED.half + ARROW_HALO, palette::HALO),
            ),
            played_shaft: RoundLine::new(
                (ArrowStyle::PLAYED.half, ArrowStyle::PLAYED.color),
                (ArrowStyle::PLAYED.half + ARROW_HALO, palette::HALO),
            ),
            backgrounds,
            palette: Palette::from_samples(&[]),
        };
        let samples = renderer.sample_pictures();
        renderer.palette = Palette::from_samples(&samples);
        Ok(renderer)
    }

    /// Pictures that show every colour and every kind of edge the renderer draws (pieces on
    /// plain and tinted squares, ghosts, crosses, rings, dots, arrows, labels, caption), for
    /// choosing the palette.
    fn sample_pictures(&self) -> Vec<RgbImage> {
        let caption = Caption {
            title: "Spanish draughts (WQ) 0123456789".into(),
            players: "alice (White) vs bob (Black) — ¿ñ?".into(),
            status: "Black to move · move 18 · 12 moves left".into(),
        };
        let mut out = Vec::new();
        let spanish = |fen: &str| Position::from_fen(Variant::Spanish, fen).ok();
        let start = Position::start(Variant::Spanish);
        let mut view = BoardView::new(&start, Color::White);
        view.caption = caption.clone();
        out.push(self.draw(&view));
        // A capture by a king, with kings of both colours about and a man that must capture.
        if let Some(before) = spanish("B:W1,3,4,9,10,15,17,K26:B22,24,25,27-30,32,K20") {
            if let Ok(mv) = before.parse_move("20x6x13") {
                let after = before.apply(&mv);
                let mut view = BoardView::new(&after, Color::Black);
                view.last_move = Some(mv);
                view.highlight_captures = true;
                view.caption = caption.clone();
                out.push(self.draw(&view));
            }
        }
        // Captures allowed and excluded, over kings and men.
        if let Some(pos) = spanish("B:W1,5,7,8,13,K11:B22,24-26,29-32,K2,K16") {
            let exp = explain(&pos, None);
            let mut view = BoardView::new(&pos, Color::White);
            view.explanation = Some(&exp);
            view.reachable_from = Square::new(22);
            view.caption = caption.clone();
            out.push(self.draw(&view));
        }
        // A plain move and the squares a king can reach.
        if let Some(pos) = spanish("W:W5,9,K14:B30,K27") {
            let mut view = BoardView::new(&pos, Color::White);
            view.reachable_from = Square::new(14);
            if let (Some(from), Some(to)) = (Square::new(31), Square::new(27)) {
                view.last_move = Some(Move::step(from, to));
            }
            view.caption = caption;
            out.push(self.draw(&view));
        }
        out
    }

    pub(crate) fn piece_sprite(&self, p: Piece) -> &Sprite {
        &self.pieces[piece_index(p)]
    }

    /// Draws the picture of a view.
    pub fn draw(&self, view: &BoardView) -> RgbImage {
        self.draw_with_arrows(view, &[])
    }

    /// Draws the picture of a view with moves drawn as solid arrows over it (a review's move
    /// played and better move), in the order given.
    pub fn draw_with_arrows(&self, view: &BoardView, arrows: &[(Move, MoveArrow)]) -> RgbImage {
        let pos = view.position;
        let variant = pos.variant();
        let persp = view.perspective;
        let mut frame = self.backgrounds[background_index(variant, persp)].clone();
        let rect = |sq: Square| Layout::square_rect(variant, persp, sq);
        let center = |sq: Square| Layout::square_center(variant, persp, sq);

        // Square fills first: everything else is drawn over them.
        if let Some(mv) = &view.last_move {
            for sq in [mv.from(), mv.to()] {
                outline(
                    &mut frame,
                    rect(sq),
                    LAST_MOVE_FRAME_WIDTH,
                    palette::LAST_MOVE_FRAME,
                );
            }
        }
        let reachable: Bitboard = match view.reachable_from {
            Some(from) => {
                fill(&mut frame, rect(from), palette::REACH_ORIGIN_SQUARE);
                pos.legal_moves()
                    .iter()
                    .filter(|m| m.from() == from)
                    .map(|m| Bitboard::from_square(m.to()))
                    .fold(Bitboard::EMPTY, |a, b| a | b)
            }
            None => Bitboard::EMPTY,
        };

        // The path of the last capture, under the pieces so they stay clean.
        if let Some(mv) = view.last_move.filter(Move::is_capture) {
            let pts: Vec<(f32, f32)> = mv.path_with_start().into_iter().map(center).collect();
            self.capture_path.draw(&mut frame, &pts, Layer::Halo);
            self.capture_path.draw(&mut frame, &pts, Layer::Line);
        }

        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                let q = rect(sq);
                blit(
                    &mut frame,
                    self.piece_sprite(p),
                    q.x as i32,
                    q.y as i32,
                    1.0,
                );
            }
        }

        // Where the last move took pieces: a faded ghost under a cross.
        {
            for (sq, taken) in view.taken_pieces() {
                let q = rect(sq);
                let ghost = self.piece_sprite(taken);
                blit(
                    &mut frame,
                    ghost,
                    q.x as i32,
                    q.y as i32,
                    sprites::GHOST_OPACITY,
                );
                blit(&mut frame, &self.capture_cross, q.x as i32, q.y as i32, 1.0);
            }
        }

        if view.highlight_captures && pos.has_capture() {
            let froms = pos
                .legal_moves()
                .iter()
                .filter(|m| m.is_capture())
                .fold(Bitboard::EMPTY, |b, m| b.with(m.from()));
            for sq in froms {
                blit_centered(&mut frame, &self.must_capture_ring, center(sq), 1.0);
            }
        }

        for sq in reachable {
            blit_centered(&mut frame, &self.reach_dot, center(sq), 1.0);
        }

        if let Some(exp) = view.explanation {
            for c in ordered_captures(&exp.captures) {
                let pts: Vec<(f32, f32)> = c.mv.path_with_start().into_iter().map(center).collect();
                let style = if c.allowed {
                    ArrowStyle::ALLOWED
                } else {
                    ArrowStyle::EXCLUDED
                };
                self.draw_arrow(&mut frame, &pts, &style);
            }
        }

        for (mv, kind) in arrows {
            let pts: Vec<(f32, f32)> = mv.path_with_start().into_iter().map(center).collect();
            let style = match kind {
                MoveArrow::Played => ArrowStyle::PLAYED,
                MoveArrow::Better => ArrowStyle::ALLOWED,
            };
            self.draw_arrow(&mut frame, &pts, &style);
        }

        // Numbers over pieces and arrows (their halo keeps both readable).
        for sq in Square::all() {
            let q = Layout::number_rect(variant, persp, sq);
            blit(
                &mut frame,
                &self.numbers[sq.index()],
                q.x as i32,
                q.y as i32,
                1.0,
            );
        }

        if let Some(exp) = view.explanation {
            self.draw_capture_labels(&mut frame, variant, persp, &exp.captures);
        }

        self.draw_caption(&mut frame, view);
        frame
    }

    fn draw_caption(&self, frame: &mut RgbImage, view: &BoardView) {
        let max = Layout::WIDTH as f32 - 2.0 * CAPTION_MARGIN;
        let c = &view.caption;
        for (s, (size, baseline), color) in [
            (&c.title, TITLE_LINE, palette::CAPTION_TITLE),
            (&c.players, PLAYERS_LINE, palette::CAPTION_TEXT),
            (&c.status, STATUS_LINE, palette::CAPTION_STATUS),
        ] {
            self.text
                .draw(frame, s, size, (CAPTION_MARGIN, baseline), max, color);
        }
    }

    /// Labels what each capture takes, near its arrow's end: in the corner of the end square
    /// the arrow points to, unless that is where the arrow comes from or where the square's
    /// number sits. Labels sharing a corner are stacked.
    fn draw_capture_labels(
        &self,
        frame: &mut RgbImage,
        variant: Variant,
        persp: Color,
        captures: &[CaptureOption],
    ) {
        let center = |sq: Square| Layout::square_center(variant, persp, sq);
        let mut used: Vec<(Square, (i8, i8), u32)> = Vec::new();
        for c in ordered_captures(captures) {
            let path = c.mv.path_with_start();
            let end = c.mv.to();
            let (ex, ey) = center(end);
            let (px, py) = center(path[path.len().saturating_sub(2)]);
            let incoming = (sign(ex - px), sign(ey - py));
            let from_corner = (-incoming.0, -incoming.1);
            const NUMBER_CORNER: (i8, i8) = (-1, -1);
            let corner = [incoming, (1, -1), (1, 1), (-1, 1)]
                .into_iter()
                .find(|&k| k != from_corner && k != NUMBER_CORNER)
                .unwrap_or((1, 1));
            let slot = match used
                .iter_mut()
                .find(|(sq, k, _)| *sq == end && *k == corner)
            {
                Some((_, _, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    used.push((end, corner, 0));
                    0
                }
            };
            let color = if c.allowed {
                palette::ALLOWED_ARROW
            } else {
                palette::EXCLUDED_ARROW
            };
            let s = Layout::SQUARE as f32;
            let step = (LABEL_SIZE + 6.0) * slot as f32 * corner.1 as f32;
            let at = (
                ex + corner.0 as f32 * s * 0.27,
                ey + corner.1 as f32 * s * 0.27 + step,
            );
            self.draw_label(frame, &capture_label(c.pieces, c.kings), at, color);
        }
    }

    /// A rounded badge with white text, centred on `at` but kept inside the board. Drawn on a
    /// supersampled patch (it is small) for a smooth outline and text.
    fn draw_label(&self, frame: &mut RgbImage, label: &str, at: (f32, f32), color: Rgb) {
        let k = canvas::SUPERSAMPLE as f32;
        let big_size = PxScale::from(LABEL_SIZE * k);
        let w = text_size(big_size, self.text.font(), label).0 as f32 / k;
        let half_h = LABEL_SIZE * 0.62;
        let halo = half_h + 1.8;
        let x = at.0.clamp(
            w / 2.0 + halo + 1.0,
            Layout::WIDTH as f32 - w / 2.0 - halo - 1.0,
        );
        let y = at.1.clamp(
            Layout::BOARD_TOP as f32 + halo + 1.0,
            Layout::HEIGHT as f32 - halo - 1.0,
        );
        let side = |v: f32| 2 * (v / 2.0).ceil() as u32 + 2;
        let badge = supersampled(side(w + 2.0 * halo), side(2.0 * halo), |img| {
            let c = (img.width() as i32 / 2, img.height() as i32 / 2);
            let (a, b) = ((-w / 2.0, 0.0), (w / 2.0, 0.0));
            for (half, fill) in [(halo, palette::HALO), (half_h, color)] {
                sprites::rounded_line(img, c, a, b, half, premultiplied(fill, 1.0));
            }
            // The digits' middle on the badge's middle: the baseline half a cap height down.
            let baseline = c.1 as f32 + k * LABEL_SIZE * 0.36;
            let top = (baseline - self.text.ascent(LABEL_SIZE * k)).round() as i32;
            let left = c.0 - (k * w / 2.0).round() as i32;
            let white = premultiplied(palette::LABEL_TEXT, 1.0);
            draw_text_mut(img, white, left, top, big_size, self.text.font(), label);
        });
        blit_centered(frame, &badge, (x, y), 1.0);
    }

    /// An arrow along a capture's path, from the edge of the capturing piece's crown zone to
    /// the last landing square: halo first, then the arrow over it.
    fn draw_arrow(&self, frame: &mut RgbImage, pts: &[(f32, f32)], style: &ArrowStyle) {
        if pts.len() < 2 {
            return;
        }
        let mut pts = pts.to_vec();
        let unit = |a, b| canvas::direction(a, b).unwrap_or((1.0, 0.0, 1e-3));
        // Start at the edge of the crown zone, so the capturing piece stays readable.
        let (ux, uy, l0) = unit(pts[0], pts[1]);
        let skip = (Layout::PIECE_RADIUS * 0.55).min(l0 * 0.5);
        pts[0] = (pts[0].0 + ux * skip, pts[0].1 + uy * skip);
        // The line stops where the head begins.
        let n = pts.len();
        let tip = pts[n - 1];
        let (ux, uy, ln) = unit(pts[n - 2], tip);
        let back = style.head_len.min(ln * 0.8);
        pts[n - 1] = (tip.0 - ux * (back - 1.0), tip.1 - uy * (back - 1.0));
        let base = (tip.0 - ux * back, tip.1 - uy * back);
        let (px, py) = (-uy, ux);
        let head = |grow: f32| {
            let hh = style.head_half + grow;
            [
                (tip.0 + ux * grow * 1.4, tip.1 + uy * grow * 1.4),
                (base.0 + px * hh - ux * grow, base.1 + py * hh - uy * grow),
                (base.0 - px * hh - ux * grow, base.1 - py * hh - uy * grow),
            ]
        };
        for (layer, grow, color) in [
            (Layer::Halo, ARROW_HALO, palette::HALO),
            (Layer::Line, 0.0, style.color),
        ] {
            match style.dash {
                None if style.color == ArrowStyle::PLAYED.color => {
                    self.played_shaft.draw(frame, &pts, layer)
                }
                None => self.allowed_shaft.draw(frame, &pts, layer),
                // The halo's dashes start earlier and end later, so they frame the coloured ones.
                Some((on, off)) => canvas::dashed(
                    frame,
                    &pts,
                    style.half + grow,
                    (on + 2.0 * grow, off - 2.0 * grow),
                    -grow,
                    color,
                ),
            }
            canvas::polygon(frame, &head(grow), color);
        }
    }
}

/// What a move arrow stands for, which sets its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveArrow {
    /// The move played (red: the colour of an excluded capture).
    Played,
    /// The move that should have been played (green: the colour of an allowed capture).
    Better,
}

/// Paints a square (or any rectangle of the layout) in one colour.
/// A square outline `width` pixels wide along the inside of `r`.
fn outline(frame: &mut RgbImage, r: Rect, width: u32, color: Rgb) {
    let width = width.min(r.w / 2).min(r.h / 2);
    let sides = [
        Rect { h: width, ..r },
        Rect {
            y: r.y + r.h - width,
            h: width,
            ..r
        },
        Rect { w: width, ..r },
        Rect {
            x: r.x + r.w - width,
            w: width,
            ..r
        },
    ];
    for side in sides {
        fill(frame, side, color);
    }
}

fn fill(frame: &mut RgbImage, r: Rect, color: Rgb) {
    if r.w > 0 && r.h > 0 {
        let area = imageproc::rect::Rect::at(r.x as i32, r.y as i32).of_size(r.w, r.h);
        draw_filled_rect_mut(frame, area, image::Rgb(color));
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Layer {
    Halo,
    Line,
}

/// A solid line with round joints over a dark halo. Its segments are polygons drawn at the
/// picture's size; its joints and ends are disks drawn once, supersampled.
struct RoundLine {
    line: (f32, Rgb),
    halo: (f32, Rgb),
    line_joint: Sprite,
    halo_joint: Sprite,
}

impl RoundLine {
    /// A line and its halo, each as (half width, colour).
    fn new(line: (f32, Rgb), halo: (f32, Rgb)) -> RoundLine {
        let disk =
            |(radius, color): (f32, Rgb)| sprites::rings(&[(radius, premultiplied(color, 1.0))]);
        RoundLine {
            line,
            halo,
            line_joint: disk(line),
            halo_joint: disk(halo),
        }
    }

    /// Draws the halo or the line itself along `pts`.
    fn draw(&self, frame: &mut RgbImage, pts: &[(f32, f32)], layer: Layer) {
        let ((half, color), joint) = match layer {
            Layer::Halo => (self.halo, &self.halo_joint),
            Layer::Line => (self.line, &self.line_joint),
        };
        for w in pts.windows(2) {
            canvas::stroke(frame, w[0], w[1], half, color);
        }
        for &p in pts {
            blit_centered(frame, joint, p, 1.0);
        }
    }
}

/// Excluded captures first, so the allowed ones are drawn on top; within each, longer paths
/// first, so a shorter arrow's head is not hidden under a longer arrow's line.
fn ordered_captures(captures: &[CaptureOption]) -> Vec<&CaptureOption> {
    let mut v: Vec<&CaptureOption> = captures.iter().collect();
    let length = |c: &CaptureOption| {
        let path = c.mv.path_with_start();
        path.windows(2)
            // Along a diagonal, the rank difference counts the steps.
            .map(|w| w[0].rank_from_first().abs_diff(w[1].rank_from_first()) as u32)
            .sum::<u32>()
    };
    v.sort_by_key(|c| (c.allowed, std::cmp::Reverse(length(c))));
    v
}

fn sign(v: f32) -> i8 {
    if v < 0.0 {
        -1
    } else {
        1
    }
}

/// "2" for two pieces, "3 (1♛)" for three pieces of which one king.
pub fn capture_label(pieces: u8, kings: u8) -> String {
    if kings == 0 {
        pieces.to_string()
    } else {
        format!("{pieces} ({kings}\u{265B})")
    }
}

struct ArrowStyle {
    color: Rgb,
    half: f32,
    dash: Option<(f32, f32)>,
    head_len: f32,
    head_half: f32,
}

impl ArrowStyle {
    const ALLOWED: ArrowStyle = ArrowStyle {
        color: palette::ALLOWED_ARROW,
        half: 5.0,
        dash: None,
        head_len: 22.0,
        head_half: 14.0,
    };
    /// As solid and as wide as an allowed capture, in the excluded captures' colour.
    const PLAYED: ArrowStyle = ArrowStyle {
        color: palette::EXCLUDED_ARROW,
        ..ArrowStyle::ALLOWED
    };
    const EXCLUDED: ArrowStyle = ArrowStyle {
        color: palette::EXCLUDED_ARROW,
        half: 3.2,
        dash: Some((12.0, 7.0)),
        head_len: 18.0,
        head_half: 11.0,
    };
}

/// Halo width around arrows, so they stand out on pieces and squares alike.
const ARROW_HALO: f32 = 1.8;

fn draw_background(variant: Variant, perspective: Color) -> RgbImage {
    let mut frame = RgbImage::from_pixel(
        Layout::WIDTH,
        Layout::HEIGHT,
        image::Rgb(palette::LIGHT_SQUARE),
    );
    let caption = Rect {
        x: 0,
        y: 0,
        w: Layout::WIDTH,
        h: Layout::CAPTION_HEIGHT,
    };
    fill(&mut frame, caption, palette::CAPTION_BACKGROUND);
    for sq in Square::all() {
        fill(
            &mut frame,
            Layout::square_rect(variant, perspective, sq),
            palette::DARK_SQUARE,
        );
    }
    frame
}
