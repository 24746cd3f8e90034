//! `train`: fits an NNUE net to training records from `xiangqi gen-data`, on the CPU.
//!
//! ```text
//! train DATA... --out DIR [--epochs 30] [--batch 16384] [--lr 0.001] [--lambda 0.3]
//!       [--buckets 1|9] [--outputs 1..16] [--threads 1] [--seed 1] [--validation 0.02] [--mirror true|false]
//!       [--resume CHECKPOINT | --init NET]
//! ```
//!
//! Writes into DIR, after every epoch, `checkpoint-NNN.f32` (the float net) and
//! `loss.csv` / `loss.svg` (training and validation loss by epoch); at the end
//! `net.nnue`, the integer net the engine loads (`EvalFile`), and prints its hash.
//! `net.nnue` is the net after the epoch with the lowest validation loss: on a few
//! million positions the net starts to learn the training games by heart before
//! the last epoch, and the held-out games say when.

use std::{path::PathBuf, process::ExitCode};

use clap::Parser;
use xiangqi_engine::nnue::Network;
use xiangqi_tools::nnue::train::{self, Config, FloatNet};

/// Fits an NNUE net to training records from `xiangqi gen-data`, on the CPU.
#[derive(Parser)]
#[command(name = "train")]
struct Args {
    /// Training record files.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The folder for checkpoints, the loss curves and `net.nnue`.
    #[arg(long)]
    out: PathBuf,
    #[arg(long)]
    epochs: Option<usize>,
    #[arg(long)]
    batch: Option<usize>,
    /// Adam's learning rate.
    #[arg(long)]
    lr: Option<f32>,
    /// How much of the target is the game's result (the rest is the search's score).
    #[arg(long)]
    lambda: Option<f32>,
    /// 1, or 9 (a net per palace cell of the own general).
    #[arg(long)]
    buckets: Option<usize>,
    /// Output buckets: sets of output weights by the number of pieces on the board (1 to 16).
    #[arg(long)]
    outputs: Option<usize>,
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long)]
    seed: Option<u64>,
    /// The share of games held out to measure the loss on.
    #[arg(long)]
    validation: Option<f32>,
    /// Train on each position's mirror image too.
    #[arg(long)]
    mirror: Option<bool>,
    /// A float checkpoint to start from.
    #[arg(long, conflicts_with = "init")]
    resume: Option<PathBuf>,
    /// A net file to start from (the shipped net, say): its weights, a net of one
    /// input bucket copied into every bucket of `--buckets` and one of one output
    /// into every output bucket of `--outputs`.
    #[arg(long)]
    init: Option<PathBuf>,
}

fn run(args: Args) -> Result<(), String> {
    let (data, out) = (&args.data, &args.out);
    let d = Config::default();
    let config = Config {
        epochs: args.epochs.unwrap_or(d.epochs),
        batch: args.batch.unwrap_or(d.batch),
        lr: args.lr.unwrap_or(d.lr),
        lambda: args.lambda.unwrap_or(d.lambda),
        buckets: args.buckets.unwrap_or(d.buckets),
        outputs: args.outputs.unwrap_or(d.outputs),
        threads: args.threads.unwrap_or(d.threads),
        seed: args.seed.unwrap_or(d.seed),
        validation: args.validation.unwrap_or(d.validation),
        mirror: args.mirror.unwrap_or(d.mirror),
    };
    if !(0.0..=1.0).contains(&config.lambda) || !(0.0..1.0).contains(&config.validation) {
        return Err("--lambda must be within 0..1 and --validation within 0..1".into());
    }
    if config.epochs == 0 || config.batch == 0 || config.threads == 0 {
        return Err("--epochs, --batch and --threads must be at least 1".into());
    }
    if !(1..=xiangqi_engine::nnue::MAX_OUTPUTS).contains(&config.outputs) {
        return Err(format!("--outputs must be within 1..{}", xiangqi_engine::nnue::MAX_OUTPUTS));
    }
    let (variant, records) = train::read_records(data)?;
    let layout = xiangqi_engine::nnue::Layout::of(variant);
    if !layout.takes_buckets(config.buckets) {
        return Err(format!(
            "--buckets must be 1 or {} (the palace cells of the {} board)",
            layout.palace_cells,
            variant.name()
        ));
    }
    let mut net = match (&args.resume, &args.init) {
        (_, Some(file)) => {
            let net = Network::load(file)?;
            let path = file.display();
            // The bucket counts it can start are `from_weights`'s to judge.
            if net.variant() != variant {
                return Err(format!(
                    "{path}: a net of the {} board, and the data is of the {} board",
                    net.variant().name(),
                    variant.name()
                ));
            }
            eprintln!("{path}: starting from net {:016x}", net.hash());
            FloatNet::from_weights(&net.weights(), config.buckets, config.outputs)
                .map_err(|e| format!("{path}: {e}"))?
        }
        (Some(file), None) => {
            let path = file.display();
            let bytes = std::fs::read(file).map_err(|e| format!("{path}: {e}"))?;
            let (net, epoch) = FloatNet::from_checkpoint(&bytes).map_err(|e| format!("{path}: {e}"))?;
            if net.buckets != config.buckets || net.outputs() != config.outputs {
                return Err(format!(
                    "{path}: has {} buckets and {} outputs, --buckets and --outputs say {} and {}",
                    net.buckets,
                    net.outputs(),
                    config.buckets,
                    config.outputs
                ));
            }
            if net.variant != variant {
                return Err(format!(
                    "{path}: a net of the {} board, and the data is of the {} board",
                    net.variant.name(),
                    variant.name()
                ));
            }
            eprintln!("{path}: the net after epoch {epoch}; Adam starts afresh");
            net
        }
        (None, None) => FloatNet::random(variant, config.buckets, config.outputs, config.seed),
    };
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("{} {} positions from {} file(s); {config:?}", records.len(), variant.name(), data.len());
    let title = format!(
        "NNUE loss ({} board): {} positions, lambda {}, lr {}",
        variant.name(),
        records.len(),
        config.lambda,
        config.lr
    );
    let write = |name: &str, bytes: &[u8]| {
        let path = out.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    let mut so_far = Vec::new();
    let mut failure = Ok(());
    let mut best: Option<(f64, usize, FloatNet)> = None;
    train::train(&mut net, &records, &config, &mut |r, net| {
        eprintln!(
            "epoch {:>3}: training loss {:.6}, validation loss {:.6}, lr {:.6}, {:.1} s",
            r.epoch, r.train_loss, r.validation_loss, r.lr, r.seconds
        );
        so_far.push(*r);
        if best.as_ref().is_none_or(|(loss, ..)| r.validation_loss < *loss) {
            best = Some((r.validation_loss, r.epoch, net.clone()));
        }
        if failure.is_ok() {
            failure = write(&format!("checkpoint-{:03}.f32", r.epoch), &net.to_checkpoint(r.epoch))
                .and_then(|()| write("loss.csv", train::csv(&so_far).as_bytes()))
                .and_then(|()| write("loss.svg", train::svg(&so_far, &title).as_bytes()));
        }
    });
    failure?;
    if let Some((loss, epoch, kept)) = best {
        eprintln!("net.nnue: the net after epoch {epoch} (validation loss {loss:.6})");
        net = kept;
    }
    let bytes = net.quantise().to_bytes();
    let loaded = Network::from_bytes(&bytes).map_err(|e| format!("the quantised net does not load: {e}"))?;
    write("net.nnue", &bytes)?;
    println!("{}: {} bytes, hash {:016x}", out.join("net.nnue").display(), bytes.len(), loaded.hash());
    Ok(())
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::from(2)
        }
    }
}
