//! `xiangqi convert`: game records from one format to another, keeping every
//! variation and comment. The input's format and encoding are told by its
//! content, as the play site's importer tells them; each record that cannot
//! be read is reported on standard error with its place and the reason, and
//! the others are converted.

use std::{
    fs::File,
    io::{BufWriter, Write},
    path::{Path, PathBuf},
    process::ExitCode,
};

use xiangqi::notation::pgn::{self, Format as MoveFormat};
use xiangqi_records::{Encoding, Format, Game, Limits, ReadOptions, RecordError, ccbridge, dhtmlxq, xqf};

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// PGN with moves in ICCS (`h2e2`).
    Pgn,
    /// PGN with moves in WXF (`C2=5`).
    PgnWxf,
    /// PGN with moves in Chinese (`炮二平五`).
    PgnChinese,
    /// XQF, one file per game.
    Xqf,
    /// DhtmlXQ text, one block per game.
    Dhtmlxq,
}

#[derive(clap::Args)]
pub struct Args {
    /// The file to read: PGN (any dialect, UTF-8, GBK or Big5), XQF, DhtmlXQ, CBF, CBR or CBL.
    file: PathBuf,
    /// The format to write.
    #[arg(long, value_enum, default_value = "pgn")]
    to: Target,
    /// Where to write: a file (standard output when left out, text formats
    /// only). For XQF, a file named `*.xqf` takes a file of one game; any other
    /// name is a directory that gets one file per game (`0001.xqf`, ...).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The encoding of a text input, where the guess might fail (a short file).
    #[arg(long)]
    encoding: Option<Encoding>,
}

pub fn run(args: Args) -> ExitCode {
    match convert(&args) {
        Ok((written, refused)) => {
            eprintln!("{written} records written, {refused} refused");
            if refused == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
        Err(e) => {
            eprintln!("xiangqi convert: {e}");
            ExitCode::from(2)
        }
    }
}

/// Reads the input and writes each record it can read: how many were
/// written and how many refused.
fn convert(args: &Args) -> Result<(usize, usize), String> {
    let name = args.file.display().to_string();
    let mut sink = Sink::open(args.to, args.out.as_deref())?;
    let mut counts = (0, 0);
    let mut each = |number: usize, game: Result<Game, RecordError>| -> Result<(), String> {
        match game {
            Ok(game) => {
                sink.write(number, &game)?;
                counts.0 += 1;
            }
            Err(e) => {
                eprintln!("{name}: record {number}: {e}");
                counts.1 += 1;
                if let Some(kept) = e.kept().filter(|g| !g.record.moves.is_empty()) {
                    sink.write(number, kept)?;
                    counts.0 += 1;
                }
            }
        }
        Ok(())
    };
    let head = read_head(&args.file)?;
    if Format::of(&head, args.encoding) == Format::Cbl {
        // A library may be far larger than memory should hold: read a record at a time.
        let file = File::open(&args.file).map_err(|e| format!("{name}: {e}"))?;
        for (i, game) in ccbridge::cbl_games(std::io::BufReader::new(file), Limits::ARCHIVE).enumerate() {
            each(i + 1, game)?;
        }
    } else {
        // A game at a time: each is written and dropped before the next is read.
        let bytes = std::fs::read(&args.file).map_err(|e| format!("{name}: {e}"))?;
        let options = ReadOptions { encoding: args.encoding, limits: Limits::ARCHIVE };
        let mut number = 0;
        let mut failed = Ok(());
        let (format, _) = xiangqi_records::for_each_game(&bytes, &options, |game| {
            number += 1;
            if failed.is_ok() {
                failed = each(number, game);
            }
        })
        .map_err(|e| format!("{name}: {e}"))?;
        failed?;
        if number == 0 {
            return Err(format!("{name}: no game record in the file (read as {format})"));
        }
    }
    sink.finish()?;
    Ok(counts)
}

/// The first bytes of a file, enough to tell its format.
fn read_head(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut head = Vec::with_capacity(4096);
    File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(head)
}

/// Where converted records go.
enum Sink {
    Text {
        to: Target,
        out: Box<dyn Write>,
        first: bool,
    },
    /// XQF files, each written as its game is read: the one file named, or
    /// a directory of one file per game.
    Xqf {
        out: PathBuf,
        single: bool,
        written: usize,
    },
}

impl Sink {
    fn open(to: Target, out: Option<&Path>) -> Result<Sink, String> {
        if to == Target::Xqf {
            let out = out.ok_or("--to xqf needs --out: a file.xqf for one game, or a directory")?;
            let single = out.extension().is_some_and(|e| e.eq_ignore_ascii_case("xqf"));
            if !single {
                std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
            }
            return Ok(Sink::Xqf { out: out.to_path_buf(), single, written: 0 });
        }
        let out: Box<dyn Write> = match out {
            Some(path) => {
                Box::new(BufWriter::new(File::create(path).map_err(|e| format!("{}: {e}", path.display()))?))
            }
            None => Box::new(BufWriter::new(std::io::stdout().lock())),
        };
        Ok(Sink::Text { to, out, first: true })
    }

    fn write(&mut self, number: usize, game: &Game) -> Result<(), String> {
        match self {
            Sink::Text { to, out, first } => {
                let text = match to {
                    Target::Pgn => pgn::write_tree(&game.record, &game.tree, MoveFormat::Iccs),
                    Target::PgnWxf => pgn::write_tree(&game.record, &game.tree, MoveFormat::Wxf),
                    Target::PgnChinese => pgn::write_tree(&game.record, &game.tree, MoveFormat::Chinese),
                    Target::Dhtmlxq | Target::Xqf => dhtmlxq::write(game),
                };
                let gap = if *first { "" } else { "\n" };
                *first = false;
                write!(out, "{gap}{text}").map_err(|e| e.to_string())
            }
            Sink::Xqf { out, single, written } => {
                if *single && *written > 0 {
                    return Err(format!(
                        "{} holds one game and the input has more: name a directory instead",
                        out.display()
                    ));
                }
                let path = if *single { out.clone() } else { out.join(format!("{number:04}.xqf")) };
                std::fs::write(&path, xqf::write(game)).map_err(|e| format!("{}: {e}", path.display()))?;
                *written += 1;
                Ok(())
            }
        }
    }

    fn finish(self) -> Result<(), String> {
        match self {
            Sink::Text { mut out, .. } => out.flush().map_err(|e| e.to_string()),
            Sink::Xqf { .. } => Ok(()),
        }
    }
}
