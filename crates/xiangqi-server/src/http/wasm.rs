//! The rules and the engine as a WebAssembly module, for the browser UI to
//! run in the page and in a worker: its loader and worker scripts (the npm
//! package's), and the module itself under a name with its content's hash,
//! cached for good. `/wasm/xiangqi_wasm.wasm` sends the browser to the current
//! name, so the loader's default finds it. The module is sent gzipped (made
//! once, at build time) to browsers that take it: about 5 MB instead of 13.
//! A server built without the module answers 404 there, and the UI falls
//! back to asking the server.

use std::sync::{Arc, LazyLock};

use axum::{
    Router,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Redirect, Response},
    routing::get,
};

use super::AppState;

const LOADER: &str = include_str!("../../../xiangqi-wasm/npm/xiangqi.js");
const WORKER: &str = include_str!("../../../xiangqi-wasm/npm/worker.js");

#[cfg(wasm_module)]
const MODULE: Option<(&[u8], &[u8])> =
    Some((include_bytes!(env!("XIANGQI_WASM_MODULE")), include_bytes!(env!("XIANGQI_WASM_MODULE_GZ"))));
#[cfg(not(wasm_module))]
const MODULE: Option<(&[u8], &[u8])> = None;

/// The module's path, named by its content (FNV-1a over its bytes).
static MODULE_PATH: LazyLock<Option<String>> = LazyLock::new(|| {
    MODULE.map(|(bytes, _)| {
        let hash = bytes
            .iter()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        format!("/wasm/xiangqi-{hash:016x}.wasm")
    })
});

/// Where the module is now, if this server has one.
pub fn module_path() -> Option<&'static str> {
    MODULE_PATH.as_deref()
}

/// A worker runs under the policy its own script is sent with (the server's
/// default allows nothing): this one may load the module and its loader from
/// here, and compile the module, and nothing more.
const WORKER_POLICY: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";

/// What the service worker keeps of the module for offline use: its scripts
/// and the module itself, where this server has one.
pub fn offline_files() -> Vec<String> {
    match module_path() {
        Some(path) => vec!["/wasm/xiangqi.js".into(), "/wasm/worker.js".into(), path.into()],
        None => Vec::new(),
    }
}

fn script(body: &'static str, policy: &'static str) -> Response {
    let csp = [(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(policy))];
    (super::web::headers("text/javascript; charset=utf-8"), csp, body).into_response()
}

fn missing() -> Response {
    (StatusCode::NOT_FOUND, "this server was built without the WebAssembly module").into_response()
}

fn takes_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| coding.split(';').next().is_some_and(|c| c.trim().eq_ignore_ascii_case("gzip")))
}

fn module(name: &str, request: &HeaderMap) -> Response {
    let (Some(path), Some((plain, gzipped))) = (module_path(), MODULE) else { return missing() };
    if path.strip_prefix("/wasm/") != Some(name) {
        return missing();
    }
    let fixed = [
        (header::CONTENT_TYPE, HeaderValue::from_static("application/wasm")),
        (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable")),
        (header::VARY, HeaderValue::from_static("accept-encoding")),
    ];
    if takes_gzip(request) {
        (fixed, [(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"))], gzipped).into_response()
    } else {
        (fixed, plain).into_response()
    }
}

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/wasm/xiangqi.js", get(|| async { script(LOADER, "default-src 'none'") }))
        .route("/wasm/worker.js", get(|| async { script(WORKER, WORKER_POLICY) }))
        .route(
            "/wasm/{name}",
            get(|axum::extract::Path(name): axum::extract::Path<String>, headers: HeaderMap| async move {
                match module_path() {
                    Some(path) if name == "xiangqi_wasm.wasm" => Redirect::temporary(path).into_response(),
                    _ => module(&name, &headers),
                }
            }),
        )
}
