//! Embeds the WebAssembly build of the rules and engine when there is one.
//! `.ci/run` (or anyone, with `cargo build -p xiangqi-wasm --target
//! wasm32-unknown-unknown --release`, copied with its gzipped twin into
//! `crates/xiangqi-wasm/npm/`) makes it; without it the server still builds,
//! and the browser UI asks the server for what the module would have answered.

use std::path::PathBuf;

fn main() {
    let npm = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../xiangqi-wasm/npm");
    // The folder, not the file: a file that does not exist yet would make
    // every build run this again.
    println!("cargo::rerun-if-changed={}", npm.display());
    println!("cargo::rustc-check-cfg=cfg(wasm_module)");
    let module = npm.join("xiangqi_wasm.wasm");
    let gzipped = npm.join("xiangqi_wasm.wasm.gz");
    if module.exists() && gzipped.exists() {
        println!("cargo::rerun-if-changed={}", module.display());
        println!("cargo::rerun-if-changed={}", gzipped.display());
        println!("cargo::rustc-cfg=wasm_module");
        println!("cargo::rustc-env=XIANGQI_WASM_MODULE={}", module.display());
        println!("cargo::rustc-env=XIANGQI_WASM_MODULE_GZ={}", gzipped.display());
    }
}
