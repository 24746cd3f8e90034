//! Arbitrary text to every PGN reader: each answers a record or an error
//! within the site's limits, never a crash or a stack overflow, and a tree it
//! reads is written and read back the same.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::notation::{
    limits::Limits,
    pgn::{self, Format},
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = pgn::check_file(text, &Limits::SITE);
    let _ = pgn::read_all(text);
    let _ = pgn::read_all_tags(text);
    if let Ok((record, tree)) = pgn::read_tree(text) {
        assert_eq!(record.moves, tree.main_line());
        assert!(tree.len() <= Limits::SITE.nodes_per_tree);
        let again = pgn::write_tree(&record, &tree, Format::Iccs);
        let (_, back) = pgn::read_tree(&again).expect("a written tree reads back");
        assert_eq!(back, tree);
    }
});
