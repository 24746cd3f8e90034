//! `docs/API.md` holds the conventions in prose and, below a marker, a reference
//! generated from the OpenAPI document. This fails when the two disagree; run it
//! with `XIANGQI_BLESS=1` to write the generated part anew.

use xiangqi_server::http::{openapi, reference};

#[test]
fn api_md_matches_the_openapi_document() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/API.md");
    let text = std::fs::read_to_string(&path).expect("docs/API.md");
    let (prose, generated) =
        text.split_once(reference::MARKER).expect("docs/API.md has the generated-part marker");
    let want = format!("\n\n{}", reference::markdown(&openapi()));
    if std::env::var_os("XIANGQI_BLESS").is_some() {
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
