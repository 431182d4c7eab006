//! The page itself and its static files, built into the binary: plain HTML in the reader's
//! language, a style sheet, a script of our own and the pictures' font. No build step.

use super::{whole, Answer};
use crate::app::i18n::{t, Lang};
use crate::fl;
use hyper::{header, StatusCode};

const HTML: &str = include_str!("../../web/board.html");
const SCRIPT: &str = include_str!("../../web/board.js");
const STYLE: &str = include_str!("../../web/board.css");

/// Text for HTML (element content or a quoted attribute).
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page of `channel`'s board in `lang`: the template's `{{name}}` marks replaced by
/// escaped words.
pub fn html(lang: Lang, channel: u64) -> Answer {
    let words = [
        ("lang", lang.code().to_string()),
        ("channel", channel.to_string()),
        ("title", t(lang, fl!("board-page-title"))),
        ("keyboard", t(lang, fl!("board-keyboard-help"))),
        ("type_move", t(lang, fl!("board-type-move"))),
        ("play", t(lang, fl!("board-play"))),
        ("choose", t(lang, fl!("board-choose-capture"))),
        ("lost", t(lang, fl!("board-connection-lost"))),
    ];
    let mut page = HTML.to_string();
    for (name, text) in words {
        page = page.replace(&format!("{{{{{name}}}}}"), &escaped(&text));
    }
    let mut answer = whole(StatusCode::OK, "text/html; charset=utf-8", page);
    answer.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    answer
}

/// One of the page's static files, if `name` is one.
pub fn static_file(name: &str) -> Option<Answer> {
    let (body, kind): (&'static [u8], &'static str) = match name {
        "board.js" => (SCRIPT.as_bytes(), "text/javascript; charset=utf-8"),
        "board.css" => (STYLE.as_bytes(), "text/css; charset=utf-8"),
        "board.ttf" => (crate::app::board_page::font(), "font/ttf"),
        _ => return None,
    };
    let mut answer = whole(StatusCode::OK, kind, body);
    answer.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("public, max-age=3600"),
    );
    Some(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_has_no_mark_left_and_no_inline_script() {
        for lang in [Lang::En, Lang::Es] {
            let mut page = HTML.to_string();
            for name in [
                "lang",
                "channel",
                "title",
                "keyboard",
                "type_move",
                "play",
                "choose",
                "lost",
            ] {
                page = page.replace(&format!("{{{{{name}}}}}"), "x");
            }
            assert!(
                !page.contains("{{"),
                "{lang:?}: a mark the code does not fill"
            );
            // Every script is the page's own file: the CSP refuses any other.
            assert_eq!(page.matches("<script").count(), 1);
            assert!(page.contains(r#"<script src="/board/static/board.js" defer></script>"#));
            assert!(!page.contains("style="), "no inline style");
            let handler = page
                .split(|c: char| c.is_whitespace())
                .find(|w| w.starts_with("on") && w.contains('='));
            assert_eq!(handler, None, "no inline handler");
        }
        assert_eq!(
            escaped(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }
}
