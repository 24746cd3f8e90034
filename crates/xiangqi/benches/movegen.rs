//! Move generation and perft on both boards: `cargo bench -p xiangqi`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use xiangqi::{Hex, Position, Standard};

/// Middle-game positions from the reference legal-move file.
const MIDDLE_GAMES: [&str; 4] = [
    "r2ak1br1/2c1a1n2/4b4/1Cn1P3p/p1P4P1/P6p1/3N2P2/4B2C1/6N2/1R1AKAB1R w - - 7 29",
    "2ba1kb2/4a4/nr4nr1/p3c4/2C5p/R1p2Cp2/P1P3P1P/3N5/9/3AKA3 w - - 6 54",
    "1n2kabRr/8C/1c4n1b/p1p2C3/4p3p/r3P1p2/2P3NcP/R3B4/9/1NBAKA3 b - - 3 27",
    "rnb1k3r/4a4/cc2ba2n/p1P5p/4p1p2/4P4/P5P1P/1C5C1/R3A4/1NBAK1BNR b - - 2 12",
];

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let standard = Position::<Standard>::startpos();
    group.throughput(Throughput::Elements(3_290_240));
    group.bench_function("standard start depth 4", |b| b.iter(|| black_box(&standard).perft(4)));
    let hex = Position::<Hex>::startpos();
    let nodes = hex.perft(4);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("hex start depth 4", |b| b.iter(|| black_box(&hex).perft(4)));
    group.finish();
}

fn legal_moves(c: &mut Criterion) {
    let positions: Vec<Position<Standard>> = MIDDLE_GAMES.iter().map(|f| f.parse().unwrap()).collect();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves, 4 middle games", |b| {
        b.iter(|| positions.iter().map(|p| black_box(p).legal_moves().len()).sum::<usize>())
    });
    group.bench_function("count_legal, 4 middle games", |b| {
        b.iter(|| positions.iter().map(|p| black_box(p).count_legal()).sum::<u64>())
    });
    group.bench_function("is_check, 4 middle games", |b| {
        b.iter(|| positions.iter().filter(|p| black_box(p).is_check()).count())
    });
    group.finish();
}

criterion_group!(benches, perft, legal_moves);
criterion_main!(benches);
