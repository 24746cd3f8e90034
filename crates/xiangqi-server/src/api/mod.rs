//! The JSON API's types: what requests carry and what answers and live events
//! hold. Serde reads and writes them; the OpenAPI document (`/api/v1/openapi.json`,
//! and from it `docs/API.md`) is generated from the same types, so the two
//! cannot drift apart.

pub mod events;
pub mod requests;
pub mod views;
