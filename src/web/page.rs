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
    filled(lang, HTML.to_string(), channel)
}

/// A page made from the template: its `{{name}}` marks replaced by escaped words.
fn filled(lang: Lang, mut page: String, channel: u64) -> Answer {
    let words = [
        ("lang", lang.code().to_string()),
        ("channel", channel.to_string()),
        ("title", t(lang, fl!("board-page-title"))),
        ("keyboard", t(lang, fl!("board-keyboard-help"))),
        ("type_move", t(lang, fl!("board-type-move"))),
        ("play", t(lang, fl!("board-play"))),
        ("choose", t(lang, fl!("board-choose-capture"))),
        ("lost", t(lang, fl!("board-connection-lost"))),
        ("resign", t(lang, fl!("button-resign"))),
        ("resign_confirm", t(lang, fl!("board-resign-confirm"))),
        ("draw_offer", t(lang, fl!("button-draw"))),
        ("draw_accept", t(lang, fl!("button-draw-accept"))),
        ("draw_decline", t(lang, fl!("button-draw-decline"))),
    ];
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

/// The script of the Activity (Discord's Embedded App SDK and our sign-in, `web/activity.js`
/// bundled by `npm run build` in `web/`), when it was built before this binary
/// (`build.rs`); without it the Activity's page says so and the board works by link only.
#[cfg(activity_bundle)]
pub const ACTIVITY_BUNDLE: Option<&[u8]> = Some(include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/web/dist/activity.js"
)));
#[cfg(not(activity_bundle))]
pub const ACTIVITY_BUNDLE: Option<&[u8]> = None;

/// Where the board page's template loads its script, and the page's main element: the
/// Activity's page is the same template with these two changed.
const SCRIPT_TAG: &str = r#"<script src="/board/static/board.js" defer></script>"#;
const MAIN_TAG: &str = r#"<main id="page" data-channel="{{channel}}">"#;
const MESSAGE_TAG: &str = r#"<p id="message" role="alert"></p>"#;

/// The Activity's page in `lang`: the board page waiting for its channel and key from the
/// sign-in (`activity.js`), which Discord's clients may frame; or, when the bundle was not
/// built, the board page saying so.
pub fn activity_html(lang: Lang, client_id: u64, bundle: bool) -> Answer {
    let words = [
        ("outside", t(lang, fl!("activity-outside-discord"))),
        ("failed", t(lang, fl!("activity-sign-in-failed"))),
    ];
    let mut main = format!(r#"<main id="page" data-activity data-client-id="{client_id}""#);
    for (name, text) in words {
        main.push_str(&format!(r#" data-{name}="{}""#, escaped(&text)));
    }
    main.push('>');
    let mut page = HTML.replace(MAIN_TAG, &main);
    if bundle {
        page = page.replace(
            SCRIPT_TAG,
            &format!("{SCRIPT_TAG}\n<script src=\"/board/static/activity.js\" defer></script>"),
        );
    } else {
        let unbuilt = escaped(&t(lang, fl!("activity-not-built")));
        page = page.replace(
            MESSAGE_TAG,
            &format!(r#"<p id="message" role="alert">{unbuilt}</p>"#),
        );
    }
    let mut answer = filled(lang, page, 0);
    let headers = answer.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(ACTIVITY_CONTENT_SECURITY_POLICY),
    );
    // Framing is the CSP's to say (frame-ancestors); X-Frame-Options cannot name Discord.
    headers.remove(header::X_FRAME_OPTIONS);
    answer
}

/// The board page's policy, with framing by Discord's clients allowed.
pub const ACTIVITY_CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com https://discordapp.com https://*.discordapp.com";

/// One of the page's static files, if `name` is one.
pub fn static_file(name: &str) -> Option<Answer> {
    let (body, kind): (&'static [u8], &'static str) = match name {
        "board.js" => (SCRIPT.as_bytes(), "text/javascript; charset=utf-8"),
        "board.css" => (STYLE.as_bytes(), "text/css; charset=utf-8"),
        "board.ttf" => (crate::app::board_page::font(), "font/ttf"),
        "activity.js" => (ACTIVITY_BUNDLE?, "text/javascript; charset=utf-8"),
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
                "resign",
                "resign_confirm",
                "draw_offer",
                "draw_accept",
                "draw_decline",
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

    async fn body_of(answer: Answer) -> String {
        use http_body_util::BodyExt;
        let bytes = answer.into_body().collect().await.unwrap().to_bytes();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[tokio::test]
    async fn only_the_activitys_page_may_be_framed_and_by_discord_only() {
        let plain = html(Lang::En, 7);
        let csp = plain.headers()[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap();
        assert!(csp.ends_with("frame-ancestors 'none'"), "{csp}");
        assert_eq!(plain.headers()[header::X_FRAME_OPTIONS], "DENY");
        for bundle in [true, false] {
            let answer = activity_html(Lang::Es, 42, bundle);
            let csp = answer.headers()[header::CONTENT_SECURITY_POLICY]
                .to_str()
                .unwrap()
                .to_string();
            let ancestors = csp.split("frame-ancestors ").nth(1).unwrap();
            assert!(
                ancestors
                    .split(' ')
                    .all(|origin| origin.starts_with("https://")
                        && [
                            ".discord.com",
                            ".discordsays.com",
                            ".discordapp.com",
                            "//discord.com",
                            "//discordapp.com"
                        ]
                        .iter()
                        .any(|d| origin.ends_with(d))),
                "{ancestors}"
            );
            assert!(answer.headers().get(header::X_FRAME_OPTIONS).is_none());
            let page = body_of(answer).await;
            assert!(!page.contains("{{"), "a mark left");
            assert!(page.contains(r#"data-activity data-client-id="42""#));
            assert!(
                !page.contains("data-channel"),
                "the channel comes from Discord"
            );
            // Every script is one of the page's own files.
            let scripts = page.matches("<script").count();
            let own = page.matches(r#"<script src="/board/static/"#).count();
            assert_eq!(scripts, own);
            assert_eq!(page.contains("activity.js"), bundle);
            assert_eq!(
                page.contains(&escaped(&t(Lang::Es, fl!("activity-not-built")))),
                !bundle
            );
        }
    }
}
