//! The board as SVG, for the board page (`crate::web`): the same picture as the PNG, drawn from
//! the same geometry ([`Layout`], the sprites' shapes) and the same [`palette`], as vector
//! shapes the browser scales to any screen.
//!
//! Besides what the PNG shows, the SVG carries what the page's script turns on and off
//! without drawing anything itself (so that no colour or size is written twice): on every
//! playing square, a hidden tint for the chosen piece's square (`class="sel"`), a hidden dot
//! for a square it can reach (`class="dot"`), a hidden keyboard cursor (`class="cur"`), and on
//! top a transparent target (`class="hit"`) naming the square and its screen cell
//! (`data-sq`, `data-col`, `data-row`). Colours are presentation attributes, not `style`: the
//! page's Content-Security-Policy allows no inline style.

use super::board::{
    CAPTION_MARGIN, CAPTURE_PATH, LAST_MOVE_FRAME_WIDTH, PLAYERS_LINE, STATUS_LINE, TITLE_LINE,
};
use super::layout::Layout;
use super::palette::{self, Rgb};
use super::sprites::{
    self, CROSS_REACH, CROSS_STROKES, CROWN, CROWN_BALLS, CROWN_BALL_RADIUS, CROWN_BAND, DOT_HALO,
    DOT_HALO_OPACITY, DOT_RADIUS, GROOVE, OUTLINE_WIDTH, RING_HALF, RING_HALO_HALF,
    RING_HALO_OPACITY, RING_RADIUS, SHADOW_BLUR, SHADOW_OFFSET, SHADOW_OPACITY,
};
use super::BoardView;
use crate::engine::{Bitboard, Color, Piece, Role, Square};
use std::fmt::Write;

/// The font family the SVG's text asks for: the PNG's own font, which the page serves.
pub const FONT_FAMILY: &str = "DamasBoard, 'DejaVu Sans', sans-serif";

fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// Text for an SVG text node or attribute value.
fn escaped(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML.
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// The board of `view` as an SVG document (`description` is its accessible name).
pub fn board_svg(view: &BoardView, description: &str) -> String {
    let pos = view.position;
    let variant = pos.variant();
    let persp = view.perspective;
    let (w, h) = Layout::size();
    let sq = Layout::SQUARE as f32;
    let rect = |s: Square| Layout::square_rect(variant, persp, s);
    let center = |s: Square| Layout::square_center(variant, persp, s);
    let mut o = String::with_capacity(32 * 1024);
    let _ = write!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" role="img" aria-label="{}" font-family="{}" font-weight="bold">"#,
        escaped(description),
        escaped(FONT_FAMILY),
    );
    let _ = write!(
        o,
        r#"<defs><filter id="shadow" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="{SHADOW_BLUR}"/></filter></defs>"#
    );
    // Caption band and board.
    let _ = write!(
        o,
        r#"<rect width="{w}" height="{}" fill="{}"/>"#,
        Layout::CAPTION_HEIGHT,
        hex(palette::CAPTION_BACKGROUND)
    );
    // The page writes the whole status beside the board: a caption longer than the picture
    // is cut at its edge.
    let c = &view.caption;
    for (class, text, (size, baseline), color) in [
        ("title", &c.title, TITLE_LINE, palette::CAPTION_TITLE),
        ("players", &c.players, PLAYERS_LINE, palette::CAPTION_TEXT),
        ("status", &c.status, STATUS_LINE, palette::CAPTION_STATUS),
    ] {
        let _ = write!(
            o,
            r#"<text class="{class}" x="{CAPTION_MARGIN}" y="{baseline}" font-size="{size}" fill="{}">{}</text>"#,
            hex(color),
            escaped(text)
        );
    }
    let _ = write!(
        o,
        r#"<rect y="{}" width="{w}" height="{}" fill="{}"/>"#,
        Layout::BOARD_TOP,
        8 * Layout::SQUARE,
        hex(palette::LIGHT_SQUARE)
    );
    for s in Square::all() {
        let r = rect(s);
        let _ = write!(
            o,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/><rect class="sel" data-sq="{}" x="{}" y="{}" width="{}" height="{}" fill="{}" visibility="hidden"/>"#,
            r.x,
            r.y,
            r.w,
            r.h,
            hex(palette::DARK_SQUARE),
            s.number(),
            r.x,
            r.y,
            r.w,
            r.h,
            hex(palette::REACH_ORIGIN_SQUARE)
        );
    }
    if let Some(mv) = &view.last_move {
        let fw = LAST_MOVE_FRAME_WIDTH as f32;
        for s in [mv.from(), mv.to()] {
            let r = rect(s);
            let _ = write!(
                o,
                r#"<rect class="last" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="{fw}"/>"#,
                r.x as f32 + fw / 2.0,
                r.y as f32 + fw / 2.0,
                r.w as f32 - fw,
                r.h as f32 - fw,
                hex(palette::LAST_MOVE_FRAME)
            );
        }
        if mv.is_capture() {
            let pts: Vec<String> = mv
                .path_with_start()
                .into_iter()
                .map(|s| {
                    let (x, y) = center(s);
                    format!("{x},{y}")
                })
                .collect();
            for (half, color) in [
                (CAPTURE_PATH.1, palette::PATH_HALO),
                (CAPTURE_PATH.0, palette::LAST_PATH),
            ] {
                let _ = write!(
                    o,
                    r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="{}" stroke-linejoin="round" stroke-linecap="round"/>"#,
                    pts.join(" "),
                    hex(color),
                    2.0 * half
                );
            }
        }
    }
    for s in Square::all() {
        if let Some(p) = pos.piece_at(s) {
            piece(&mut o, p, center(s), 1.0);
        }
    }
    {
        for (s, taken) in view.taken_pieces() {
            let (x, y) = center(s);
            piece(&mut o, taken, (x, y), sprites::GHOST_OPACITY);
            let k = sq * CROSS_REACH;
            for (half, color) in CROSS_STROKES {
                let _ = write!(
                    o,
                    r#"<path class="cross" d="M{} {}L{} {}M{} {}L{} {}" stroke="{}" stroke-width="{}" stroke-linecap="round"/>"#,
                    x - k,
                    y - k,
                    x + k,
                    y + k,
                    x - k,
                    y + k,
                    x + k,
                    y - k,
                    hex(color),
                    2.0 * half
                );
            }
        }
    }
    if view.highlight_captures && pos.has_capture() {
        let froms = pos
            .legal_moves()
            .iter()
            .filter(|m| m.is_capture())
            .fold(Bitboard::EMPTY, |b, m| b.with(m.from()));
        for s in froms {
            let (x, y) = center(s);
            let _ = write!(
                o,
                r#"<circle class="ring" data-sq="{}" cx="{x}" cy="{y}" r="{RING_RADIUS}" fill="none" stroke="{}" stroke-opacity="{RING_HALO_OPACITY}" stroke-width="{}"/><circle cx="{x}" cy="{y}" r="{RING_RADIUS}" fill="none" stroke="{}" stroke-width="{}"/>"#,
                s.number(),
                hex(palette::HALO),
                2.0 * RING_HALO_HALF,
                hex(palette::MUST_CAPTURE_RING),
                2.0 * RING_HALF
            );
        }
    }
    let reachable: Bitboard = match view.reachable_from {
        Some(from) => pos
            .legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .fold(Bitboard::EMPTY, |b, m| b.with(m.to())),
        None => Bitboard::EMPTY,
    };
    let dot = sq * DOT_RADIUS;
    for s in Square::all() {
        let (x, y) = center(s);
        let shown = if reachable.contains(s) {
            "visible"
        } else {
            "hidden"
        };
        let _ = write!(
            o,
            r#"<g class="dot" data-sq="{}" visibility="{shown}"><circle cx="{x}" cy="{y}" r="{}" fill="{}" fill-opacity="{DOT_HALO_OPACITY}"/><circle cx="{x}" cy="{y}" r="{dot}" fill="{}"/></g>"#,
            s.number(),
            dot + DOT_HALO,
            hex(palette::HALO),
            hex(palette::REACH_DOT)
        );
    }
    // Square numbers over everything, with their halo.
    for s in Square::all() {
        let r = Layout::number_rect(variant, persp, s);
        let _ = write!(
            o,
            r#"<text class="num" x="{}" y="{}" font-size="{}" fill="{}" stroke="{}" stroke-width="3.5" stroke-linejoin="round" paint-order="stroke">{}</text>"#,
            r.x + 4,
            r.y as f32 + 2.0 + Layout::NUMBER_SIZE,
            Layout::NUMBER_SIZE,
            hex(palette::NUMBER_TEXT),
            hex(palette::NUMBER_HALO),
            s.number()
        );
    }
    for s in Square::all() {
        let r = rect(s);
        let (col, row) = Layout::cell(variant, persp, s);
        let fw = LAST_MOVE_FRAME_WIDTH as f32;
        let _ = write!(
            o,
            r#"<rect class="cur" data-sq="{n}" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="{fw}" stroke-dasharray="12 6" visibility="hidden"/><rect class="hit" data-sq="{n}" data-col="{col}" data-row="{row}" x="{}" y="{}" width="{}" height="{}" fill="transparent"/>"#,
            r.x as f32 + fw / 2.0,
            r.y as f32 + fw / 2.0,
            r.w as f32 - fw,
            r.h as f32 - fw,
            hex(palette::KEYBOARD_CURSOR),
            r.x,
            r.y,
            r.w,
            r.h,
            n = s.number(),
        );
    }
    o.push_str("</svg>");
    o
}

/// A piece centred on `(x, y)`, as the PNG's sprite draws it: shadow, outline, body,
/// groove, and a king's crown.
fn piece(o: &mut String, p: Piece, (x, y): (f32, f32), opacity: f32) {
    let r = Layout::PIECE_RADIUS;
    let colors = sprites::piece_colors(p.color);
    let kind = match (p.color, p.role) {
        (Color::White, Role::Man) => "white-man",
        (Color::White, Role::King) => "white-king",
        (Color::Black, Role::Man) => "black-man",
        (Color::Black, Role::King) => "black-king",
    };
    let _ = write!(
        o,
        r#"<g class="piece {kind}" transform="translate({x} {y})" opacity="{opacity}">"#
    );
    let _ = write!(
        o,
        r#"<circle cx="{}" cy="{}" r="{}" fill="black" fill-opacity="{SHADOW_OPACITY}" filter="url(#shadow)"/>"#,
        SHADOW_OFFSET.0,
        SHADOW_OFFSET.1,
        r + 0.5
    );
    for (radius, color) in [
        (r, colors.outline),
        (r - OUTLINE_WIDTH, colors.body),
        (GROOVE * r + 1.0, colors.groove),
        (GROOVE * r - 1.0, colors.body),
    ] {
        let _ = write!(o, r#"<circle r="{radius}" fill="{}"/>"#, hex(color));
    }
    if p.role == Role::King {
        let crown = hex(colors.crown);
        let pts: Vec<String> = CROWN
            .iter()
            .map(|(cx, cy)| format!("{},{}", cx * r, cy * r))
            .collect();
        let _ = write!(o, r#"<polygon points="{}" fill="{crown}"/>"#, pts.join(" "));
        for (bx, by) in CROWN_BALLS {
            let _ = write!(
                o,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{crown}"/>"#,
                bx * r,
                by * r,
                CROWN_BALL_RADIUS * r
            );
        }
        let (x0, y0, x1, y1) = CROWN_BAND;
        let _ = write!(
            o,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{crown}"/>"#,
            x0 * r,
            y0 * r,
            (x1 - x0) * r,
            (y1 - y0) * r
        );
    }
    o.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Position, Variant};

    #[test]
    fn the_svg_has_every_square_and_piece_and_escapes_the_caption() {
        let start = Position::start(Variant::Spanish);
        let mut view = BoardView::new(&start, Color::White);
        view.caption.players = "<b>ana</b> & \"bo\"".into();
        let svg = board_svg(&view, "a <board>");
        assert_eq!(svg.matches(r#"class="hit""#).count(), 32);
        assert_eq!(svg.matches("class=\"piece white-man\"").count(), 12);
        assert_eq!(svg.matches("class=\"piece black-man\"").count(), 12);
        assert!(
            svg.contains("&lt;b&gt;ana&lt;/b&gt; &amp; &quot;bo&quot;"),
            "{svg}"
        );
        assert!(!svg.contains("<b>"));
        assert!(svg.contains(r#"aria-label="a &lt;board&gt;""#));
        // No inline style: the page's CSP allows none.
        assert!(!svg.contains("style="));
    }

    #[test]
    fn the_svg_puts_each_square_where_the_png_does() {
        let start = Position::start(Variant::Spanish);
        for persp in [Color::White, Color::Black] {
            let svg = board_svg(&BoardView::new(&start, persp), "");
            for s in Square::all() {
                let r = Layout::square_rect(Variant::Spanish, persp, s);
                let hit = format!(
                    r#"class="hit" data-sq="{}" data-col="{}" data-row="{}" x="{}" y="{}""#,
                    s.number(),
                    r.x / Layout::SQUARE,
                    (r.y - Layout::BOARD_TOP) / Layout::SQUARE,
                    r.x,
                    r.y
                );
                assert!(svg.contains(&hit), "{hit}");
            }
        }
    }
}
