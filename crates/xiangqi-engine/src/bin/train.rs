//! `train`: fits an NNUE net to training records from `xiangqi gen-data`, on the CPU.
//!
//! ```text
//! train DATA... --out DIR [--epochs 30] [--batch 16384] [--lr 0.001] [--lambda 0.3]
//!       [--buckets 1|9] [--threads 1] [--seed 1] [--validation 0.02] [--mirror true|false]
//!       [--resume CHECKPOINT]
//! ```
//!
//! Writes into DIR, after every epoch, `checkpoint-NNN.f32` (the float net) and
//! `loss.csv` / `loss.svg` (training and validation loss by epoch); at the end
//! `net.nnue`, the integer net the engine loads (`EvalFile`), and prints its hash.
//! `net.nnue` is the net after the epoch with the lowest validation loss: on a few
//! million positions the net starts to learn the training games by heart before
//! the last epoch, and the held-out games say when.

use std::{path::PathBuf, process::ExitCode};

use xiangqi_engine::nnue::{
    Network,
    train::{self, Config, FloatNet},
};

fn value<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{name} needs a value of the right kind")),
    }
}

const OPTIONS: [&str; 11] = [
    "--out",
    "--epochs",
    "--batch",
    "--lr",
    "--lambda",
    "--buckets",
    "--threads",
    "--seed",
    "--validation",
    "--resume",
    "--mirror",
];

fn run(args: &[String]) -> Result<(), String> {
    let mut data = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if OPTIONS.contains(&args[i].as_str()) {
            i += 2;
        } else if args[i].starts_with("--") {
            return Err(format!("unknown option {}", args[i]));
        } else {
            data.push(PathBuf::from(&args[i]));
            i += 1;
        }
    }
    if data.is_empty() {
        return Err("usage: train DATA... --out DIR [--epochs N] [--batch N] [--lr F] [--lambda F] [--buckets 1|9] [--threads N] [--seed N] [--validation F] [--mirror true|false] [--resume CHECKPOINT]".into());
    }
    let out: PathBuf = value(args, "--out", PathBuf::new())?;
    if out.as_os_str().is_empty() {
        return Err("--out DIR is required".into());
    }
    let d = Config::default();
    let config = Config {
        epochs: value(args, "--epochs", d.epochs)?,
        batch: value(args, "--batch", d.batch)?,
        lr: value(args, "--lr", d.lr)?,
        lambda: value(args, "--lambda", d.lambda)?,
        buckets: value(args, "--buckets", d.buckets)?,
        threads: value(args, "--threads", d.threads)?,
        seed: value(args, "--seed", d.seed)?,
        validation: value(args, "--validation", d.validation)?,
        mirror: value(args, "--mirror", d.mirror)?,
    };
    if config.buckets != 1 && config.buckets != 9 {
        return Err("--buckets must be 1 or 9".into());
    }
    if !(0.0..=1.0).contains(&config.lambda) || !(0.0..1.0).contains(&config.validation) {
        return Err("--lambda must be within 0..1 and --validation within 0..1".into());
    }
    if config.epochs == 0 || config.batch == 0 || config.threads == 0 {
        return Err("--epochs, --batch and --threads must be at least 1".into());
    }
    let mut net = match args.iter().position(|a| a == "--resume") {
        Some(i) => {
            let path = args.get(i + 1).ok_or("--resume needs a checkpoint")?;
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let (net, epoch) = FloatNet::from_checkpoint(&bytes).map_err(|e| format!("{path}: {e}"))?;
            if net.buckets != config.buckets {
                return Err(format!(
                    "{path}: has {} buckets, --buckets says {}",
                    net.buckets, config.buckets
                ));
            }
            eprintln!("{path}: the net after epoch {epoch}; Adam starts afresh");
            net
        }
        None => FloatNet::random(config.buckets, config.seed),
    };
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let records = train::read_records(&data)?;
    eprintln!("{} positions from {} file(s); {config:?}", records.len(), data.len());
    let title = format!("NNUE loss: {} positions, lambda {}, lr {}", records.len(), config.lambda, config.lr);
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::from(2)
        }
    }
}
