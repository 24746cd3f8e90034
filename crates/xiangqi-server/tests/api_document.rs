//! `docs/API.md` holds the conventions in prose and, below a marker, a reference
//! generated from the OpenAPI document; the browser UI's API types
//! (`web/js/api-types.d.ts`) are generated from it too. These fail when a file
//! and the document disagree; run them with `XIANGQI_BLESS=1` to write the
//! generated parts anew.

mod api_types;

use std::path::{Path, PathBuf};

use xiangqi_server::http::{openapi, reference};

fn blessing() -> bool {
    std::env::var_os("XIANGQI_BLESS").is_some()
}

fn in_crate(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn api_md_matches_the_openapi_document() {
    let path = in_crate("../../docs/API.md");
    let text = std::fs::read_to_string(&path).expect("docs/API.md");
    let (prose, generated) =
        text.split_once(reference::MARKER).expect("docs/API.md has the generated-part marker");
    let want = format!("\n\n{}", reference::markdown(&openapi()));
    if blessing() {
        std::fs::write(&path, format!("{prose}{}{want}", reference::MARKER)).unwrap();
        return;
    }
    assert!(
        generated == want,
        "docs/API.md's reference is out of date with the OpenAPI document: \
         run `XIANGQI_BLESS=1 cargo test -p xiangqi-server --test api_document` and review the diff"
    );
}

#[test]
fn every_type_the_reference_names_is_described() {
    let doc = reference::markdown(&openapi());
    for name in ["GameSummary", "GameView", "ChallengeView", "UserView", "ClockSpec", "Event", "ErrorBody"] {
        assert!(doc.contains(&format!("### `{name}`")), "{name} is described");
    }
}

/// The document as the server serves it at `/api/v1/openapi.json`.
fn served() -> serde_json::Value {
    serde_json::from_str(&openapi().to_json().expect("the document is JSON")).expect("the document parses")
}

#[test]
fn the_ui_api_types_match_the_openapi_document() {
    let path = in_crate("web/js/api-types.d.ts");
    let want = api_types::declarations(&served());
    if blessing() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "web/js/api-types.d.ts is out of date with the OpenAPI document: \
         run `XIANGQI_BLESS=1 cargo test -p xiangqi-server --test api_document` and review the diff"
    );
}

#[test]
fn the_ui_api_types_say_what_the_socket_and_the_game_carry() {
    let types = api_types::declarations(&served());
    // A tagged enum is a union discriminated by its tag, a nullable reference
    // `T | null`, a field left out of `required` optional.
    assert!(types.contains("export type Event =\n"), "{types}");
    assert!(types.contains("  | {\n      game: GameView;\n      type: \"game\";\n    }"), "{types}");
    assert!(types.contains("outcome?: OutcomeView | null;"), "{types}");
    assert!(types.contains("export type GameView = GameSummary & {"), "{types}");
    assert!(types.contains("export type NoticeKind = \"challenge\" | "), "{types}");
}
