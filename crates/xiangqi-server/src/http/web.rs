//! The browser UI: plain ES modules and a stylesheet, embedded in the binary and
//! served as written (no build step, so the server needs no Node).
//!
//! The page runs under a strict Content-Security-Policy: scripts and styles only
//! from this origin, none inline.

use std::sync::Arc;

use axum::{
    Router,
    extract::Path,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};

use super::AppState;

/// The policy sent with the page. `data:` images leave room for inline SVG icons in CSS.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const INDEX: &str = include_str!("../../web/index.html");

macro_rules! assets {
    ($($path:literal),* $(,)?) => {
        /// Every file under `web/` the browser may fetch, by its path there.
        const ASSETS: &[(&str, &str)] = &[$(($path, include_str!(concat!("../../web/", $path)))),*];
    };
}

assets!(
    "style.css",
    "js/api.js",
    "js/dom.js",
    "js/fen.js",
    "js/format.js",
    "js/i18n.js",
    "js/live.js",
    "js/main.js",
    "js/models.js",
    "js/notify.js",
    "js/router.js",
    "js/state.js",
    "js/messages/en.js",
    "js/messages/zh.js",
    "js/components/board.js",
    "js/components/board-hex.js",
    "js/components/board-standard.js",
    "js/components/clock.js",
    "js/components/form.js",
    "js/components/geometry.js",
    "js/components/layout.js",
    "js/components/movelist.js",
    "js/components/nav.js",
    "js/components/notice.js",
    "js/components/alerts.js",
    "js/components/badges.js",
    "js/components/chat.js",
    "js/components/menu.js",
    "js/components/people.js",
    "js/components/terms.js",
    "js/components/user-actions.js",
    "js/pages/game.js",
    "js/pages/login.js",
    "js/pages/new-game.js",
    "js/pages/people.js",
    "js/pages/position.js",
    "js/pages/profile.js",
    "js/pages/room.js",
    "js/pages/status.js",
    "js/pages/conversation.js",
    "js/pages/invite.js",
    "js/pages/join.js",
    "js/pages/lists.js",
    "js/pages/messages.js",
    "js/pages/profile-edit.js",
    "js/pages/search.js",
);

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// `no-cache` makes the browser revalidate, so a new server's UI shows at once.
fn headers(kind: &'static str) -> [(header::HeaderName, HeaderValue); 3] {
    [
        (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
    ]
}

fn index() -> Response {
    let csp = (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    (headers("text/html; charset=utf-8"), [csp], INDEX).into_response()
}

fn asset(path: &str) -> Response {
    match ASSETS.iter().find(|(p, _)| *p == path) {
        Some((p, body)) => (headers(content_type(p)), *body).into_response(),
        None => (StatusCode::NOT_FOUND, headers("text/plain; charset=utf-8"), "not found").into_response(),
    }
}

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(|| async { index() }))
        .route("/style.css", get(|| async { asset("style.css") }))
        .route("/js/{*path}", get(|Path(path): Path<String>| async move { asset(&format!("js/{path}")) }))
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    fn web_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("web")
    }

    /// The `.js` and `.css` files under `dir`, as paths relative to `web/`.
    fn files(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                if name != "node_modules" {
                    files(&path, out);
                }
            } else if name.ends_with(".js") || name.ends_with(".css") {
                out.push(path.strip_prefix(web_dir()).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }

    #[test]
    fn every_module_and_stylesheet_is_embedded() {
        let mut on_disk = Vec::new();
        files(&web_dir(), &mut on_disk);
        on_disk.sort();
        let mut embedded: Vec<String> = ASSETS.iter().map(|(p, _)| p.to_string()).collect();
        embedded.sort();
        assert_eq!(on_disk, embedded, "web/ and the ASSETS table must list the same files");
    }

    #[test]
    fn the_page_has_no_inline_script_style_or_handlers() {
        let html = INDEX.to_ascii_lowercase();
        for tag in html.split('<').skip(1) {
            let tag = tag.split('>').next().unwrap_or("");
            if tag.starts_with("script") {
                assert!(tag.contains(" src="), "a script without src: <{tag}>");
            }
            assert!(!tag.starts_with("style"), "an inline <style> element");
            for attr in tag.split_whitespace().skip(1) {
                assert!(!attr.starts_with("style="), "a style attribute: <{tag}>");
                assert!(!attr.starts_with("on"), "an event handler attribute: <{tag}>");
            }
        }
        assert!(!html.contains("javascript:"), "a javascript: URL");
    }

    #[test]
    fn no_module_writes_markup_or_inline_style() {
        for (path, body) in ASSETS {
            for banned in
                ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "setAttribute(\"style\""]
            {
                assert!(!body.contains(banned), "{path} uses {banned}");
            }
        }
    }

    #[test]
    fn assets_are_typed_and_unknown_ones_are_missing() {
        let r = asset("js/main.js");
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.headers()[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
        assert_eq!(r.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert_eq!(r.headers()[header::CACHE_CONTROL], "no-cache");
        assert_eq!(asset("style.css").headers()[header::CONTENT_TYPE], "text/css; charset=utf-8");
        assert_eq!(asset("js/nothing.js").status(), StatusCode::NOT_FOUND);
        assert_eq!(asset("js/../package.json").status(), StatusCode::NOT_FOUND);
    }

    #[test]
    fn the_page_is_sent_with_the_content_security_policy() {
        let r = index();
        assert_eq!(r.headers()[header::CONTENT_SECURITY_POLICY], CONTENT_SECURITY_POLICY);
        assert!(CONTENT_SECURITY_POLICY.contains("script-src 'self';"));
    }
}
