//! The browser UI's API types, written from the OpenAPI document as TypeScript
//! declarations (`web/js/api-types.d.ts`): the UI's type check then reads the
//! server's own types, so a field renamed, dropped or made nullable on the
//! server shows up as a type error in the pages that read it.
//!
//! The document is read as the JSON the server serves, so what is generated is
//! what a client sees: `oneOf` becomes a union (a tagged enum's variants keep
//! their tag as a string literal, which makes them a discriminated union),
//! `allOf` an intersection, a string `enum` a union of literals, a property
//! missing from `required` an optional one, and `null` among the types `| null`.

use std::fmt::Write;

use serde_json::{Map, Value};

/// The first lines of the generated file.
pub const HEADER: &str = "\
// The JSON types of the API (/api/v1), generated from the OpenAPI document the
// server builds (/api/v1/openapi.json). Do not edit: run
// `XIANGQI_BLESS=1 cargo test -p xiangqi-server --test api_document` to write it
// anew. The UI names these types through models.js.
";

/// Every schema of the document's `components.schemas` as an exported type.
pub fn declarations(doc: &Value) -> String {
    let mut out = String::from(HEADER);
    let schemas = doc["components"]["schemas"].as_object().expect("the document has components.schemas");
    for (name, schema) in schemas {
        out.push('\n');
        comment(&mut out, "", description(schema));
        let body = render(schema, "");
        // A union written one alternative a line starts on the next line.
        let gap = if body.starts_with('\n') { "" } else { " " };
        let _ = writeln!(out, "export type {name} ={gap}{body};");
    }
    out
}

/// A schema's own description, or for a nullable reference (`oneOf` of `null`
/// and a `$ref`, where the document puts it) the reference's.
fn description(schema: &Value) -> Option<&str> {
    schema["description"].as_str().or_else(|| {
        let items = schema["oneOf"].as_array()?;
        items.iter().find_map(|item| item["description"].as_str())
    })
}

/// A JSDoc comment on the lines before a declaration, at `indent`.
fn comment(out: &mut String, indent: &str, text: Option<&str>) {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else { return };
    // A `*/` in the text would end the comment early.
    let text = text.replace("*/", "*\\/");
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    if let [line] = lines.as_slice() {
        let _ = writeln!(out, "{indent}/** {line} */");
        return;
    }
    let _ = writeln!(out, "{indent}/**");
    for line in lines {
        if line.is_empty() {
            let _ = writeln!(out, "{indent} *");
        } else {
            let _ = writeln!(out, "{indent} * {line}");
        }
    }
    let _ = writeln!(out, "{indent} */");
}

/// Whether a schema renders as more than one alternative (or an intersection),
/// which needs brackets before `[]`.
fn compound(schema: &Value) -> bool {
    if schema.get("$ref").is_some() {
        return false;
    }
    let many = |key: &str| schema[key].as_array().is_some_and(|a| a.len() > 1);
    many("oneOf") || many("anyOf") || many("allOf") || many("enum") || many("type")
}

/// The type a schema describes; `indent` is that of the line it starts on.
fn render(schema: &Value, indent: &str) -> String {
    if let Some(target) = schema["$ref"].as_str() {
        return target.rsplit('/').next().unwrap_or(target).to_string();
    }
    if let Some(items) = schema["oneOf"].as_array().or_else(|| schema["anyOf"].as_array()) {
        return union(items, indent);
    }
    if let Some(items) = schema["allOf"].as_array() {
        let parts: Vec<String> = items.iter().map(|item| bracketed(item, indent)).collect();
        return parts.join(" & ");
    }
    if let Some(values) = schema["enum"].as_array() {
        let literals: Vec<String> = values.iter().map(Value::to_string).collect();
        return literals.join(" | ");
    }
    match &schema["type"] {
        Value::String(kind) => basic(kind, schema, indent),
        Value::Array(kinds) => {
            let parts: Vec<String> =
                kinds.iter().filter_map(Value::as_str).map(|kind| basic(kind, schema, indent)).collect();
            parts.join(" | ")
        }
        _ => "unknown".to_string(),
    }
}

/// A part of an intersection or an array's items, bracketed when it is a union.
fn bracketed(schema: &Value, indent: &str) -> String {
    let text = render(schema, indent);
    if compound(schema) { format!("({text})") } else { text }
}

/// Alternatives: on one line when they are short names, else one a line, each
/// after its description (a tagged enum's variants say what each one means).
fn union(items: &[Value], indent: &str) -> String {
    let inner = format!("{indent}  ");
    // Past the `| `, so that an object's fields stand to the right of the bar.
    let member = format!("{inner}  ");
    // `null` last: `T | null` reads as "a T, or nothing".
    let mut items: Vec<&Value> = items.iter().collect();
    items.sort_by_key(|item| item["type"] == "null");
    let parts: Vec<String> = items.iter().map(|item| bracketed(item, &member)).collect();
    if parts.iter().all(|p| !p.contains('\n'))
        && items.iter().all(|i| i["description"].is_null() || i.get("$ref").is_some())
    {
        return parts.join(" | ");
    }
    let mut out = String::new();
    for (item, part) in items.iter().zip(parts) {
        out.push('\n');
        comment(&mut out, &inner, item["description"].as_str());
        let _ = write!(out, "{inner}| {part}");
    }
    out
}

/// One of JSON Schema's basic types.
fn basic(kind: &str, schema: &Value, indent: &str) -> String {
    match kind {
        "string" => "string".into(),
        "integer" | "number" => "number".into(),
        "boolean" => "boolean".into(),
        "null" => "null".into(),
        "array" => match schema.get("items") {
            Some(items) if items.is_object() => format!("{}[]", bracketed(items, indent)),
            _ => "unknown[]".into(),
        },
        "object" => object(schema, indent),
        _ => "unknown".into(),
    }
}

/// An object's fields, each after its description; those `required` does not
/// name are optional.
fn object(schema: &Value, indent: &str) -> String {
    let empty = Map::new();
    let properties = schema["properties"].as_object().unwrap_or(&empty);
    if properties.is_empty() {
        return match schema.get("additionalProperties") {
            Some(Value::Bool(false)) => "Record<string, never>".into(),
            Some(extra) if extra.is_object() => format!("Record<string, {}>", render(extra, indent)),
            _ => "Record<string, unknown>".into(),
        };
    }
    let required: Vec<&str> =
        schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    for (name, field) in properties {
        comment(&mut out, &inner, description(field));
        let optional = if required.contains(&name.as_str()) { "" } else { "?" };
        let _ = writeln!(out, "{inner}{}{optional}: {};", key(name), render(field, &inner));
    }
    let _ = write!(out, "{indent}}}");
    out
}

/// A property name, quoted unless it is an identifier.
fn key(name: &str) -> String {
    let mut chars = name.chars();
    let identifier = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier { name.to_string() } else { Value::String(name.to_string()).to_string() }
}
