//! The browser UI: plain ES modules and a stylesheet, embedded in the binary and
//! served as written (no build step, so the server needs no Node).
//!
//! The page runs under a strict Content-Security-Policy: scripts and styles only
//! from this origin, none inline.

use std::{
    hash::{Hash, Hasher},
    sync::{Arc, LazyLock},
};

use axum::{
    Router,
    extract::Path,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};

use super::AppState;

/// The policy sent with the page. `data:` images leave room for inline SVG icons in CSS;
/// `'wasm-unsafe-eval'` lets the page compile the rules' WebAssembly module (and
/// nothing else: `eval` stays refused).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const INDEX: &str = include_str!("../../web/index.html");

/// The service worker as written; what is served has the UI's version and files
/// in place of [`SW_BUILD_SLOT`].
const SERVICE_WORKER: &str = include_str!("../../web/sw.js");
const SW_BUILD_SLOT: &str = "({ version: \"\", files: [] })";

/// The home-screen icons, rendered from `favicon.svg` by `web/tools/icons.py`.
const IMAGES: &[(&str, &[u8])] = &[
    ("icons/icon-192.png", include_bytes!("../../web/icons/icon-192.png")),
    ("icons/icon-512.png", include_bytes!("../../web/icons/icon-512.png")),
    ("icons/icon-maskable-512.png", include_bytes!("../../web/icons/icon-maskable-512.png")),
];

macro_rules! assets {
    ($($path:literal),* $(,)?) => {
        /// Every file under `web/` the browser may fetch, by its path there.
        const ASSETS: &[(&str, &str)] = &[$(($path, include_str!(concat!("../../web/", $path)))),*];
    };
}

assets!(
    "style.css",
    "favicon.svg",
    "manifest.webmanifest",
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
    "js/prefs.js",
    "js/notation.js",
    "js/sound.js",
    "js/errors.js",
    "js/engine.js",
    "js/links.js",
    "js/offline.js",
    "js/local.js",
    "js/messages/en.js",
    "js/messages/vi.js",
    "js/messages/zh.js",
    "js/messages/zh-Hant.js",
    "js/components/board.js",
    "js/components/board-hex.js",
    "js/components/board-standard.js",
    "js/components/challenges.js",
    "js/components/clock.js",
    "js/components/diagram.js",
    "js/components/download.js",
    "js/components/evaluation.js",
    "js/components/review.js",
    "js/components/pieces.js",
    "js/components/form.js",
    "js/components/geometry.js",
    "js/components/layout.js",
    "js/components/movelist.js",
    "js/components/nav.js",
    "js/components/skip-link.js",
    "js/components/openings.js",
    "js/components/notice.js",
    "js/components/alerts.js",
    "js/components/badges.js",
    "js/components/chat.js",
    "js/components/menu.js",
    "js/components/people.js",
    "js/components/ratings.js",
    "js/components/terms.js",
    "js/components/user-actions.js",
    "js/components/account-forms.js",
    "js/components/engine-panel.js",
    "js/components/game-filters.js",
    "js/components/help-nav.js",
    "js/components/move-tree.js",
    "js/components/move-tree-view.js",
    "js/components/news-card.js",
    "js/components/paged-list.js",
    "js/components/puzzle-card.js",
    "js/pages/game.js",
    "js/pages/game/controller.js",
    "js/pages/game/buttons.js",
    "js/pages/game/view.js",
    "js/pages/game/spoken.js",
    "js/pages/game/endpoints.js",
    "js/pages/analysis.js",
    "js/pages/analysis/controller.js",
    "js/pages/analysis/conditionals-panel.js",
    "js/pages/analysis/explorer-panel.js",
    "js/pages/analysis/position-editor.js",
    "js/pages/analysis/view.js",
    "js/pages/analysis/endpoints.js",
    "js/pages/database/database.js",
    "js/pages/database/endpoints.js",
    "js/pages/database/imports.js",
    "js/pages/database/masters.js",
    "js/pages/account/login.js",
    "js/pages/account/endpoints.js",
    "js/pages/play/new-game.js",
    "js/pages/people/people.js",
    "js/pages/people/endpoints.js",
    "js/pages/position.js",
    "js/pages/people/profile.js",
    "js/pages/puzzles/puzzles.js",
    "js/pages/puzzles/controller.js",
    "js/pages/puzzles/view.js",
    "js/pages/puzzles/modes.js",
    "js/pages/puzzles/leaders.js",
    "js/pages/puzzles/endpoints.js",
    "js/pages/play/room.js",
    "js/pages/play/endpoints.js",
    "js/pages/messages/conversation.js",
    "js/pages/help.js",
    "js/pages/home/home.js",
    "js/pages/home/status.js",
    "js/pages/home/endpoints.js",
    "js/pages/account/invite.js",
    "js/pages/account/join.js",
    "js/pages/ladder/ladder.js",
    "js/pages/ladder/view.js",
    "js/pages/ladder/endpoints.js",
    "js/pages/tournaments/list.js",
    "js/pages/tournaments/tournament.js",
    "js/pages/tournaments/view.js",
    "js/pages/tournaments/tables.js",
    "js/pages/tournaments/create-form.js",
    "js/pages/tournaments/words.js",
    "js/pages/tournaments/endpoints.js",
    "js/pages/studies/study.js",
    "js/pages/studies/list.js",
    "js/pages/studies/controller.js",
    "js/pages/studies/view.js",
    "js/pages/studies/chapters.js",
    "js/pages/studies/members.js",
    "js/pages/studies/endpoints.js",
    "js/pages/people/lists.js",
    "js/pages/messages/messages.js",
    "js/pages/messages/items.js",
    "js/pages/messages/endpoints.js",
    "js/pages/news.js",
    "js/pages/people/profile-edit.js",
    "js/pages/rules.js",
    "js/pages/local-game.js",
    "js/pages/people/search.js",
    "js/pages/account/settings.js",
    "js/pages/people/leaders.js",
    "js/pages/people/ratings.js",
);

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("webmanifest") => "application/manifest+json",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

/// `no-cache` makes the browser revalidate, so a new server's UI shows at once.
pub(super) fn headers(kind: &'static str) -> [(header::HeaderName, HeaderValue); 3] {
    [
        (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
    ]
}

/// Where the page finds the WebAssembly module (empty on a server without one).
const WASM_SLOT: &str = "<meta name=\"xiangqi-wasm\" content=\"\">";

/// The page as served: with the module's current path in [`WASM_SLOT`].
static INDEX_SERVED: LazyLock<String> = LazyLock::new(|| {
    let path = super::wasm::module_path().unwrap_or("");
    INDEX.replacen(WASM_SLOT, &format!("<meta name=\"xiangqi-wasm\" content=\"{path}\">"), 1)
});

fn index() -> Response {
    let csp = (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    (headers("text/html; charset=utf-8"), [csp], INDEX_SERVED.as_str()).into_response()
}

fn asset(path: &str) -> Response {
    match ASSETS.iter().find(|(p, _)| *p == path) {
        Some((p, body)) => (headers(content_type(p)), *body).into_response(),
        None => (StatusCode::NOT_FOUND, headers("text/plain; charset=utf-8"), "not found").into_response(),
    }
}

fn image(name: &str) -> Response {
    let path = format!("icons/{name}");
    match IMAGES.iter().find(|(p, _)| *p == path) {
        Some((p, body)) => (headers(content_type(p)), *body).into_response(),
        None => (StatusCode::NOT_FOUND, headers("text/plain; charset=utf-8"), "not found").into_response(),
    }
}

/// The service worker as served: the version changes with any file of the UI
/// (so a browser installs the new one), and the files are what it keeps for
/// offline use.
static SERVICE_WORKER_SERVED: LazyLock<String> = LazyLock::new(|| {
    let mut hasher = std::hash::DefaultHasher::new();
    let module = super::wasm::offline_files();
    (INDEX, SERVICE_WORKER, ASSETS, IMAGES, &module).hash(&mut hasher);
    let files: Vec<String> = ASSETS
        .iter()
        .map(|(p, _)| p)
        .chain(IMAGES.iter().map(|(p, _)| p))
        .map(|p| format!("/{p}"))
        .chain(module)
        .collect();
    let build = serde_json::json!({ "version": format!("{:016x}", hasher.finish()), "files": files });
    SERVICE_WORKER.replacen(SW_BUILD_SLOT, &format!("({build})"), 1)
});

/// A worker runs under its script's policy, and every answer but the page's
/// gets one that allows nothing: the worker's own lets it fetch from this origin.
pub const SERVICE_WORKER_POLICY: &str = "default-src 'none'; connect-src 'self'; frame-ancestors 'none'";

fn service_worker() -> Response {
    let csp = (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(SERVICE_WORKER_POLICY));
    (headers(content_type("sw.js")), [csp], SERVICE_WORKER_SERVED.as_str()).into_response()
}

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(|| async { index() }))
        .route("/style.css", get(|| async { asset("style.css") }))
        // The site's icon, for tabs, bookmarks and a home screen; browsers that ask for
        // /favicon.ico without reading the page's link get the same drawing.
        .route("/favicon.svg", get(|| async { asset("favicon.svg") }))
        .route("/favicon.ico", get(|| async { asset("favicon.svg") }))
        .route("/manifest.webmanifest", get(|| async { asset("manifest.webmanifest") }))
        .route("/js/{*path}", get(|Path(path): Path<String>| async move { asset(&format!("js/{path}")) }))
        .route("/icons/{name}", get(|Path(name): Path<String>| async move { image(&name) }))
        // At the root, so that its scope is the whole site.
        .route("/sw.js", get(|| async { service_worker() }))
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    fn web_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("web")
    }

    /// The files under `dir` the browser loads (modules, the stylesheet, the icon and
    /// the manifest), as paths relative to `web/`.
    fn files(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                if name != "node_modules" {
                    files(&path, out);
                }
            } else if name != "sw.js"
                && [".js", ".css", ".svg", ".webmanifest", ".png"].iter().any(|ext| name.ends_with(ext))
            {
                out.push(path.strip_prefix(web_dir()).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }

    #[test]
    fn every_module_and_stylesheet_is_embedded() {
        let mut on_disk = Vec::new();
        files(&web_dir(), &mut on_disk);
        on_disk.sort();
        let mut embedded: Vec<String> = ASSETS
            .iter()
            .map(|(p, _)| p.to_string())
            .chain(IMAGES.iter().map(|(p, _)| p.to_string()))
            .collect();
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

    /// The keys of a message catalogue: the quoted names before `:` at the start of a line.
    fn catalogue_keys(path: &str) -> Vec<String> {
        let body = ASSETS.iter().find(|(p, _)| *p == path).map(|(_, b)| *b).unwrap();
        let mut keys: Vec<String> = body
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix('"')?.split_once("\":").map(|(k, _)| k.to_string()))
            .collect();
        keys.sort();
        keys
    }

    /// The type check (`npm run check`) already refuses a catalogue that lacks a
    /// key; this says the same without Node, in `cargo test`.
    #[test]
    fn every_catalogue_has_every_key() {
        let en = catalogue_keys("js/messages/en.js");
        assert!(en.len() > 100, "the English catalogue was read: {} keys", en.len());
        for path in ["js/messages/zh.js", "js/messages/zh-Hant.js", "js/messages/vi.js"] {
            let other = catalogue_keys(path);
            let missing: Vec<_> = en.iter().filter(|k| !other.contains(k)).collect();
            let extra: Vec<_> = other.iter().filter(|k| !en.contains(k)).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{path} lacks {missing:?}; has unknown {extra:?}"
            );
        }
    }

    /// Every reason the server gives for a refusal, as the API document lists
    /// them, is worded in every language with the particulars it sends; a
    /// particular that is itself a name (the act a limit counts, why a move is
    /// illegal) has each of its values worded too. Only `detail` (the server's
    /// English account of a malformed request) and a move's `number` may go
    /// unsaid.
    #[test]
    fn every_refusal_reason_is_worded_in_every_catalogue() {
        let schema =
            serde_json::to_value(<crate::error::Refusal as utoipa::PartialSchema>::schema()).unwrap();
        let variants = schema["oneOf"].as_array().expect("refusals are a oneOf").clone();
        assert!(variants.len() > 60, "{} reasons", variants.len());
        for path in ["js/messages/en.js", "js/messages/zh.js", "js/messages/zh-Hant.js", "js/messages/vi.js"]
        {
            let keys = catalogue_keys(path);
            let body = ASSETS.iter().find(|(p, _)| *p == path).map(|(_, b)| *b).unwrap();
            for variant in &variants {
                let reason = variant["properties"]["reason"]["enum"][0].as_str().expect("a reason's name");
                assert_ne!(reason, "other", "every refusal has a reason of its own");
                let key = format!("refusal.{reason}");
                assert!(keys.contains(&key), "{path} lacks {key}");
                let line = body.lines().find(|l| l.trim_start().starts_with(&format!("\"{key}\""))).unwrap();
                let params =
                    variant["properties"]["params"]["properties"].as_object().cloned().unwrap_or_default();
                for (param, shape) in params {
                    if !matches!(param.as_str(), "detail" | "number") {
                        assert!(
                            line.contains(&format!("{{{param}}}")),
                            "{path}: {key} does not say {{{param}}}"
                        );
                    }
                    for value in shape["enum"].as_array().into_iter().flatten() {
                        let worded = format!("refusal.{param}.{}", value.as_str().unwrap());
                        assert!(keys.contains(&worded), "{path} lacks {worded}");
                    }
                }
            }
        }
    }

    /// The arguments of a call, given the text after its opening parenthesis, split at
    /// top-level commas (strings, template literals and brackets respected).
    fn call_args(after: &str) -> Vec<String> {
        let mut args = vec![String::new()];
        let (mut depth, mut quote) = (0i32, None::<char>);
        let mut chars = after.chars();
        while let Some(c) = chars.next() {
            if let Some(q) = quote {
                args.last_mut().unwrap().push(c);
                if c == '\\' {
                    args.last_mut().unwrap().extend(chars.next());
                } else if c == q {
                    quote = None;
                }
                continue;
            }
            match c {
                '"' | '\'' | '`' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth == 0 => return args,
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => {
                    args.push(String::new());
                    continue;
                }
                _ => {}
            }
            args.last_mut().unwrap().push(c);
        }
        args
    }

    /// A bare string literal with a letter in it: words a user would read.
    fn is_wording(arg: &str) -> bool {
        let a = arg.trim();
        let quoted = a.len() >= 2
            && ((a.starts_with('"') && a.ends_with('"'))
                || (a.starts_with('\'') && a.ends_with('\''))
                || (a.starts_with('`') && a.ends_with('`') && !a.contains("${")));
        quoted && a[1..a.len() - 1].chars().any(char::is_alphabetic)
    }

    /// Words shown to the user come from the catalogues. Where it can be told
    /// from the source, no module puts a string literal on the page itself: as a
    /// child of an element made with `h(...)`, as a button's label, as
    /// `textContent`, or as a label, title or placeholder attribute. Names of
    /// languages in their own script (the language menus) are the one exception:
    /// they read the same in every language. Text built at run time (a variable)
    /// is beyond this check; the type check sees that `t()` keys exist.
    #[test]
    fn no_module_writes_words_outside_the_catalogues() {
        const OWN_NAMES: [&str; 5] =
            ["\"English\"", "\"中文（简体）\"", "\"中文\"", "\"中文（繁體）\"", "\"Tiếng Việt\""];
        let mut found = Vec::new();
        for (path, body) in ASSETS {
            if !path.ends_with(".js") || path.starts_with("js/messages/") {
                continue;
            }
            for (at, _) in body.match_indices("h(\"") {
                if at > 0 && body[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.') {
                    continue;
                }
                for arg in call_args(&body[at + 2..]).iter().skip(2) {
                    if is_wording(arg) && !OWN_NAMES.contains(&arg.trim()) {
                        found.push(format!("{path}: {}", arg.trim()));
                    }
                }
            }
            for (at, _) in body.match_indices("button(") {
                if let Some(first) = call_args(&body[at + 7..]).first().filter(|a| is_wording(a)) {
                    found.push(format!("{path}: button {}", first.trim()));
                }
            }
            for line in body.lines() {
                for attr in ["textContent = ", "\"aria-label\": ", "placeholder: ", "title: ", "label: "] {
                    if let Some((_, rest)) = line.split_once(attr) {
                        let value = rest.split([';', ',', '}']).next().unwrap_or("");
                        if is_wording(value) {
                            found.push(format!("{path}: {}", line.trim()));
                        }
                    }
                }
            }
        }
        assert!(found.is_empty(), "words outside the catalogues:\n{}", found.join("\n"));
    }

    #[test]
    fn the_wording_check_catches_a_literal() {
        assert!(is_wording("\"Submit\""));
        assert!(is_wording(" '提交' "));
        assert!(!is_wording("\"×\""));
        assert!(!is_wording("t(\"game.submit\")"));
        assert!(!is_wording("`${n}%`"));
        let args = call_args("\"p\", { class: \"a, b\" }, \"Hello\", t(\"x\"))");
        assert_eq!(args.len(), 4, "{args:?}");
        assert!(is_wording(&args[2]));
    }

    #[test]
    fn assets_are_typed_and_unknown_ones_are_missing() {
        let r = asset("js/main.js");
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.headers()[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
        assert_eq!(r.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert_eq!(r.headers()[header::CACHE_CONTROL], "no-cache");
        assert_eq!(asset("style.css").headers()[header::CONTENT_TYPE], "text/css; charset=utf-8");
        assert_eq!(asset("favicon.svg").headers()[header::CONTENT_TYPE], "image/svg+xml");
        assert_eq!(
            asset("manifest.webmanifest").headers()[header::CONTENT_TYPE],
            "application/manifest+json"
        );
        assert_eq!(asset("js/nothing.js").status(), StatusCode::NOT_FOUND);
        assert_eq!(asset("js/../package.json").status(), StatusCode::NOT_FOUND);
    }

    #[test]
    fn the_service_worker_is_served_with_the_version_and_files() {
        let body = SERVICE_WORKER_SERVED.as_str();
        assert!(SERVICE_WORKER.contains(SW_BUILD_SLOT), "sw.js keeps the slot the server fills");
        assert!(!body.contains(SW_BUILD_SLOT), "the slot was filled");
        let at = body.find("const BUILD = ").expect("the build's line");
        let start = at + body[at..].find("({").expect("the build as JSON") + 1;
        let end = start + body[start..].find("})").unwrap() + 1;
        let build: serde_json::Value = serde_json::from_str(&body[start..end]).unwrap();
        assert_eq!(build["version"].as_str().unwrap().len(), 16, "{build}");
        let files: Vec<&str> =
            build["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        for file in
            ["/js/main.js", "/js/pages/rules.js", "/js/pages/help.js", "/style.css", "/icons/icon-192.png"]
        {
            assert!(files.contains(&file), "{file} is kept offline");
        }
        assert_eq!(files.len(), ASSETS.len() + IMAGES.len() + super::super::wasm::offline_files().len());
        let r = service_worker();
        assert_eq!(r.headers()[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
        assert_eq!(r.headers()[header::CACHE_CONTROL], "no-cache");
        assert_eq!(r.headers()[header::CONTENT_SECURITY_POLICY], SERVICE_WORKER_POLICY);
    }

    /// Each icon is a PNG of the size its name says, and not one colour: a
    /// flat image compresses to a few hundred bytes, the drawing to thousands.
    /// (The browser test counts its colours.)
    #[test]
    fn the_icons_are_pngs_of_their_sizes_with_a_drawing() {
        for (path, bytes) in IMAGES {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{path} is a PNG");
            assert_eq!(&bytes[12..16], b"IHDR");
            let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
            let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
            let size: u32 = path.trim_end_matches(".png").rsplit('-').next().unwrap().parse().unwrap();
            assert_eq!((width, height), (size, size), "{path}");
            let mut at = 8;
            let mut data = 0;
            while at + 8 <= bytes.len() {
                let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
                if &bytes[at + 4..at + 8] == b"IDAT" {
                    data += len;
                }
                at += 12 + len;
            }
            assert!(data > size as usize * 20, "{path}: {data} bytes of pixels is next to nothing");
            let r = image(path.trim_start_matches("icons/"));
            assert_eq!(r.status(), StatusCode::OK);
            assert_eq!(r.headers()[header::CONTENT_TYPE], "image/png");
        }
        assert_eq!(image("none.png").status(), StatusCode::NOT_FOUND);
    }

    #[test]
    fn the_page_is_sent_with_the_content_security_policy() {
        let r = index();
        assert_eq!(r.headers()[header::CONTENT_SECURITY_POLICY], CONTENT_SECURITY_POLICY);
        assert!(
            CONTENT_SECURITY_POLICY.contains("script-src 'self' 'wasm-unsafe-eval';"),
            "scripts from this origin only, and no eval"
        );
    }
}
