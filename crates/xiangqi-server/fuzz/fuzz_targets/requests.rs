//! Any bytes given to every parser a request reaches before the handlers' own
//! rules (JSON bodies, query strings, path names, WebSocket messages, moves,
//! cookies and forwarded addresses): no panic, and what parses keeps its bounds.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = xiangqi_server::http::inputs::parse_everything(data);
});
