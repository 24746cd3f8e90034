//! The page as a screen reader gets it: Chromium's accessibility tree, read
//! through ChromeDriver's DevTools passage (`goog/cdp/execute`). A test that
//! must work the way a blind player does finds every control here by its
//! computed role and accessible name, never by a CSS selector, and reads what
//! the page says from the text of a live region.

use std::time::Duration;

use axum::http::Method;
use fantoccini::{Client, wd::WebDriverCompatibleCommand};
use reqwest::Url;
use serde_json::{Value, json};

/// One DevTools command, sent through ChromeDriver.
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &Url, session: Option<&str>) -> Result<Url, url_error::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &Url) -> (Method, Option<String>) {
        (Method::POST, Some(json!({ "cmd": self.cmd, "params": self.params }).to_string()))
    }
}

/// The url crate's error, named through reqwest (which re-exports the type it takes).
mod url_error {
    pub type ParseError = <reqwest::Url as std::str::FromStr>::Err;
}

/// Runs a DevTools command; answers its result.
pub async fn cdp(c: &Client, cmd: &'static str, params: Value) -> Value {
    c.issue_cmd(Cdp { cmd, params }).await.unwrap_or_else(|e| panic!("{cmd} failed: {e}"))
}

/// Every node of the page's accessibility tree that is not ignored.
pub async fn tree(c: &Client) -> Vec<Value> {
    let all = cdp(c, "Accessibility.getFullAXTree", json!({})).await;
    all["nodes"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|n| n["ignored"] != true)
        .collect()
}

/// A node's computed role.
pub fn role(node: &Value) -> &str {
    node["role"]["value"].as_str().unwrap_or_default()
}

/// A node's accessible name.
pub fn name(node: &Value) -> &str {
    node["name"]["value"].as_str().unwrap_or_default()
}

/// A node's value (what a combobox or a text box holds).
pub fn value(node: &Value) -> String {
    match &node["value"]["value"] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A property of a node (`checked`, `disabled`...), as the tree states it.
pub fn property(node: &Value, wanted: &str) -> Value {
    node["properties"]
        .as_array()
        .and_then(|all| all.iter().find(|p| p["name"] == wanted))
        .map_or(Value::Null, |p| p["value"]["value"].clone())
}

/// All the text below a node (its static text, in order), as a screen reader reads it through.
pub fn text_under(nodes: &[Value], node: &Value) -> String {
    let mut parts = Vec::new();
    let mut stack: Vec<Value> = node["childIds"].as_array().cloned().unwrap_or_default();
    stack.reverse();
    while let Some(id) = stack.pop() {
        let Some(child) = nodes.iter().find(|n| n["nodeId"] == id) else { continue };
        if role(child) == "StaticText" {
            parts.push(name(child).to_string());
        }
        let mut below = child["childIds"].as_array().cloned().unwrap_or_default();
        below.reverse();
        stack.extend(below);
    }
    parts.join(" ")
}

/// The node of this role whose name is `wanted`, once the page has it (at most
/// 15 s); else the test fails, listing the names of that role it found.
pub async fn find(c: &Client, wanted_role: &str, wanted: &str) -> Value {
    let mut seen = Vec::new();
    for _ in 0..60 {
        let nodes = tree(c).await;
        if let Some(n) = nodes.iter().find(|n| role(n) == wanted_role && name(n) == wanted) {
            return n.clone();
        }
        seen = nodes.iter().filter(|n| role(n) == wanted_role).map(|n| name(n).to_string()).collect();
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("no {wanted_role} named {wanted:?}; the {wanted_role}s: {seen:?}")
}

/// The first node of this role whose name starts with `start` (at most 15 s).
pub async fn find_starting(c: &Client, wanted_role: &str, start: &str) -> Value {
    for _ in 0..60 {
        if let Some(n) =
            tree(c).await.into_iter().find(|n| role(n) == wanted_role && name(n).starts_with(start))
        {
            return n;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("no {wanted_role} whose name starts {start:?}")
}

/// Whether some text of the page reads `wanted` now.
pub async fn says(c: &Client, wanted: &str) -> bool {
    tree(c).await.iter().any(|n| role(n) == "StaticText" && name(n).contains(wanted))
}

/// Runs `function` (a JavaScript function's source) with the node as `this`:
/// the one way a test touches a node, once it has found it in the tree.
async fn call_on(c: &Client, node: &Value, function: &str) {
    let id = node["backendDOMNodeId"].clone();
    let resolved = cdp(c, "DOM.resolveNode", json!({ "backendNodeId": id })).await;
    let object = resolved["object"]["objectId"].clone();
    cdp(c, "Runtime.callFunctionOn", json!({ "objectId": object, "functionDeclaration": function })).await;
}

/// Moves the keyboard focus to a node.
pub async fn focus(c: &Client, node: &Value) {
    call_on(c, node, "function () { this.scrollIntoView({ block: 'center' }); this.focus(); }").await;
}

/// Activates a node (a button, a link, a checkbox) as a click or Enter would.
pub async fn press(c: &Client, node: &Value) {
    call_on(c, node, "function () { this.scrollIntoView({ block: 'center' }); this.click(); }").await;
}

/// Presses a key on whatever has the focus: `Enter`, `ArrowDown`...
pub async fn key(c: &Client, key: &str) {
    let code = match key {
        "Enter" => 13,
        "ArrowLeft" => 37,
        "ArrowUp" => 38,
        "ArrowRight" => 39,
        "ArrowDown" => 40,
        _ => 0,
    };
    let text = if key == "Enter" { "\r" } else { "" };
    for kind in ["keyDown", "keyUp"] {
        let mut event = json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code });
        if kind == "keyDown" && !text.is_empty() {
            event["text"] = json!(text);
        }
        cdp(c, "Input.dispatchKeyEvent", event).await;
    }
}

/// Types text into a node that takes it, as a keyboard would.
pub async fn type_into(c: &Client, node: &Value, text: &str) {
    focus(c, node).await;
    cdp(c, "Input.insertText", json!({ "text": text })).await;
}
