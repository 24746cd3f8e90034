//! The xiangqi play site without its HTTP edge: the vocabulary every layer
//! shares ([`model`]), the services that keep the site's rules of conduct
//! ([`domain`]), and the store they write to ([`store`], SQLite or
//! PostgreSQL), with the pools the services search and parse on. The server
//! (`xiangqi-server`) puts HTTP, WebSockets and the browser UI in front of it;
//! tools that fill or read a site's database build on this crate alone.

pub mod backup;
pub mod domain;
pub mod engines;
pub mod model;
pub mod parsing;
pub mod store;
pub mod supervise;
pub mod telemetry;
