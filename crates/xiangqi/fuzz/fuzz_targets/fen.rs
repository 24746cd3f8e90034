//! Any text given to the FEN parsers of both boards: no panic, and whatever parses
//! writes back to a FEN that parses to the same position.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::{Geometry, Hex, Position, Standard};

fn round_trip<G: Geometry>(text: &str) {
    if let Ok(pos) = Position::<G>::from_fen(text) {
        let again = Position::<G>::from_fen(&pos.to_fen()).expect("written FEN parses");
        assert_eq!(pos, again);
        assert_eq!(pos.hash(), again.hash());
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        round_trip::<Standard>(text);
        round_trip::<Hex>(text);
    }
});
