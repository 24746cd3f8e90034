//! `docs/API.md`'s reference part, written from the OpenAPI document: every
//! endpoint with what it takes and answers, and every type with its fields. A
//! test compares it with the file, so the prose and the code cannot drift apart.

use std::fmt::Write;

use utoipa::openapi::{
    OpenApi, RefOr,
    path::{Operation, Parameter, ParameterIn},
    schema::{ArrayItems, Schema, SchemaType, Type},
};

/// The line after which `docs/API.md` is generated.
pub const MARKER: &str = "<!-- Generated from /api/v1/openapi.json below this line. -->";

/// The reference as Markdown.
pub fn markdown(doc: &OpenApi) -> String {
    let mut out = String::new();
    out.push_str("## Endpoints\n");
    let tags: Vec<String> = doc.tags.iter().flatten().map(|t| t.name.clone()).collect();
    for tag in &tags {
        let _ = write!(out, "\n### {tag}\n\n| method and path | takes | answers |\n|---|---|---|\n");
        for (path, item) in &doc.paths.paths {
            let ops = [
                ("GET", &item.get),
                ("POST", &item.post),
                ("PUT", &item.put),
                ("DELETE", &item.delete),
                ("PATCH", &item.patch),
            ];
            for (method, op) in ops {
                if let Some(op) = op
                    && op.tags.iter().flatten().any(|t| t == tag)
                {
                    endpoint(&mut out, method, path, op);
                }
            }
        }
    }
    out.push_str("\n## Types\n");
    if let Some(components) = &doc.components {
        for (name, schema) in &components.schemas {
            let _ = write!(out, "\n### `{name}`\n\n");
            type_section(&mut out, schema);
        }
    }
    out
}

fn cell(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").replace('|', "\\|")
}

fn endpoint(out: &mut String, method: &str, path: &str, op: &Operation) {
    let mut takes = Vec::new();
    for p in op.parameters.iter().flatten() {
        takes.push(parameter(p));
    }
    if let Some(body) = &op.request_body {
        for content in body.content.values() {
            if let Some(s) = &content.schema {
                takes.push(format!("body {}", type_name(s)));
            }
        }
    }
    let mut answers = Vec::new();
    for (status, response) in &op.responses.responses {
        let RefOr::T(r) = response else { continue };
        let body: Vec<String> = r.content.values().filter_map(|c| c.schema.as_ref().map(type_name)).collect();
        let mut a = status.clone();
        if !body.is_empty() {
            let _ = write!(a, " {}", body.join(", "));
        }
        if !r.description.is_empty() {
            let _ = write!(a, " — {}", r.description);
        }
        answers.push(cell(&a));
    }
    let what = [op.summary.as_deref(), op.description.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let _ = writeln!(
        out,
        "| `{method} {path}`<br>{} | {} | {} |",
        cell(&what),
        cell(&takes.join("; ")),
        answers.join("<br>")
    );
}

fn parameter(p: &Parameter) -> String {
    let kind = match p.parameter_in {
        ParameterIn::Query => "query",
        ParameterIn::Path => "path",
        ParameterIn::Header => "header",
        ParameterIn::Cookie => "cookie",
    };
    let ty = p.schema.as_ref().map(type_name).unwrap_or_default();
    let mut s = format!("{kind} `{}` {ty}", p.name);
    if let Some(d) = &p.description {
        let _ = write!(s, ": {d}");
    }
    s
}

fn type_section(out: &mut String, schema: &RefOr<Schema>) {
    let RefOr::T(schema) = schema else {
        let _ = writeln!(out, "{}", type_name(schema));
        return;
    };
    match schema {
        Schema::Object(o) => {
            if let Some(d) = &o.description {
                let _ = writeln!(out, "{}\n", d.trim());
            }
            if let Some(values) = &o.enum_values {
                let names: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
                let _ = writeln!(out, "One of {}.", names.join(", "));
            } else if !o.properties.is_empty() {
                fields(out, &o.properties, &o.required);
            }
        }
        Schema::OneOf(one) => {
            if let Some(d) = &one.description {
                let _ = writeln!(out, "{}\n", d.trim());
            }
            let _ = writeln!(out, "One of:\n");
            for item in &one.items {
                match item {
                    RefOr::T(Schema::Object(o)) if !o.properties.is_empty() => {
                        let tag = o.properties.iter().find_map(|(k, v)| match v {
                            RefOr::T(Schema::Object(t)) => {
                                t.enum_values.as_ref().map(|e| format!("{k} = {}", e[0]))
                            }
                            _ => None,
                        });
                        let desc = o.description.as_deref().unwrap_or("").trim();
                        let tag = tag.map(|t| format!("`{t}`")).unwrap_or_default();
                        if desc.is_empty() {
                            let _ = writeln!(out, "- {tag}");
                        } else {
                            let _ = writeln!(out, "- {tag}: {}", cell(desc));
                        }
                        let body: Vec<String> = o
                            .properties
                            .iter()
                            .map(|(k, v)| format!("`{k}`{} {}", optional(k, &o.required), inline_type(v)))
                            .collect();
                        let _ = writeln!(out, "  fields {}", body.join(", "));
                    }
                    RefOr::T(Schema::Object(o)) => {
                        let names: Vec<String> =
                            o.enum_values.iter().flatten().map(|v| format!("`{v}`")).collect();
                        let _ = writeln!(
                            out,
                            "- {} {}",
                            names.join(", "),
                            cell(o.description.as_deref().unwrap_or(""))
                        );
                    }
                    other => {
                        let _ = writeln!(out, "- {}", type_name(other));
                    }
                }
            }
        }
        Schema::AllOf(all) => {
            if let Some(d) = &all.description {
                let _ = writeln!(out, "{}\n", d.trim());
            }
            for item in &all.items {
                match item {
                    RefOr::T(Schema::Object(o)) => fields(out, &o.properties, &o.required),
                    other => {
                        let _ = writeln!(out, "All the fields of {}, and:\n", type_name(other));
                    }
                }
            }
        }
        other => {
            let _ = writeln!(out, "{}", type_name(&RefOr::T(other.clone())));
        }
    }
}

/// A field's type, with the fields of an object defined in place (a refusal's
/// `params`, say) spelt out.
fn inline_type(schema: &RefOr<Schema>) -> String {
    match schema {
        RefOr::T(Schema::Object(o)) if o.enum_values.is_none() && type_name(schema) == "object" => {
            let inner: Vec<String> = o
                .properties
                .iter()
                .map(|(k, v)| format!("`{k}`{} {}", optional(k, &o.required), type_name(v)))
                .collect();
            if inner.is_empty() { "{}".to_string() } else { format!("{{ {} }}", inner.join(", ")) }
        }
        other => type_name(other),
    }
}

fn optional(name: &str, required: &[String]) -> &'static str {
    if required.iter().any(|r| r == name) { "" } else { " (optional)" }
}

fn fields(
    out: &mut String,
    properties: &std::collections::BTreeMap<String, RefOr<Schema>>,
    required: &[String],
) {
    let _ = writeln!(out, "| field | type | meaning |\n|---|---|---|");
    for (name, schema) in properties {
        let desc = match schema {
            RefOr::T(Schema::Object(o)) => o.description.clone(),
            RefOr::T(Schema::Array(a)) => a.description.clone(),
            RefOr::T(Schema::OneOf(o)) => o.description.clone(),
            RefOr::T(Schema::AllOf(a)) => a.description.clone(),
            _ => None,
        };
        let _ = writeln!(
            out,
            "| `{name}`{} | {} | {} |",
            optional(name, required),
            cell(&type_name(schema)),
            cell(desc.as_deref().unwrap_or(""))
        );
    }
}

fn basic(t: &SchemaType) -> String {
    let one = |t: &Type| {
        match t {
            Type::Object => "object",
            Type::String => "string",
            Type::Integer => "integer",
            Type::Number => "number",
            Type::Boolean => "boolean",
            Type::Array => "array",
            Type::Null => "null",
        }
        .to_string()
    };
    match t {
        SchemaType::Type(t) => one(t),
        SchemaType::Array(ts) => ts.iter().map(one).collect::<Vec<_>>().join(" | "),
        SchemaType::AnyValue => "any".into(),
    }
}

/// A short name for a schema: a `$ref`'s name, `[T]` for arrays, `a | b` for choices.
fn type_name(schema: &RefOr<Schema>) -> String {
    match schema {
        RefOr::Ref(r) => format!("`{}`", r.ref_location.rsplit('/').next().unwrap_or("")),
        RefOr::T(Schema::Object(o)) => match &o.enum_values {
            Some(values) => values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(" | "),
            None => basic(&o.schema_type),
        },
        RefOr::T(Schema::Array(a)) => match &a.items {
            ArrayItems::RefOrSchema(item) => format!("[{}]", type_name(item)),
            ArrayItems::False => "[]".into(),
        },
        RefOr::T(Schema::OneOf(o)) => o.items.iter().map(type_name).collect::<Vec<_>>().join(" | "),
        RefOr::T(Schema::AllOf(a)) => a.items.iter().map(type_name).collect::<Vec<_>>().join(" & "),
        RefOr::T(_) => "any".into(),
    }
}
