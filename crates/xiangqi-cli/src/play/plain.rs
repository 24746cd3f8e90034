//! The line-by-line game: the board is printed after every move, moves and
//! commands are read one per line. Used when stdout is not a terminal, with
//! `--plain`, and by the tests.

use std::io::{self, BufRead, Write};

use super::{commands::Command, session::Session};
use crate::render::{self, Paint};

pub fn run(mut session: Session, input: impl BufRead, mut out: impl Write) -> io::Result<()> {
    show(&session, &mut out)?;
    let mut lines = input.lines();
    loop {
        if session.engine_to_move() {
            let found = session.opponent.best_move(&session.game, None);
            match session.play(found.best) {
                Ok(reply) => {
                    writeln!(out, "engine plays {}", reply.lines.first().map_or("", String::as_str))?;
                    for l in reply.lines.iter().skip(1) {
                        writeln!(out, "{l}")?;
                    }
                }
                Err(why) => writeln!(out, "engine move refused: {why}")?,
            }
            show(&session, &mut out)?;
            continue;
        }
        write!(out, "{}> ", session.game.turn())?;
        out.flush()?;
        let Some(line) = lines.next() else { break };
        let Some(command) = Command::parse(&line?) else { continue };
        let redraw = !matches!(command, Command::Help | Command::Moves | Command::Think | Command::Save(_));
        match session.handle(command) {
            Ok(reply) => {
                for l in &reply.lines {
                    writeln!(out, "{l}")?;
                }
                if reply.quit {
                    break;
                }
                if redraw {
                    show(&session, &mut out)?;
                }
            }
            Err(why) => writeln!(out, "refused: {why}")?,
        }
    }
    Ok(())
}

fn show(session: &Session, out: &mut impl Write) -> io::Result<()> {
    let pos = session.position();
    write!(out, "{}", render::board_from(pos, session.game.last_move(), Paint::Plain, session.flipped))?;
    let state = match session.game.outcome() {
        Some(o) => format!("game over: {o}"),
        None if session.game.is_check() => format!("{} to move, in check", session.game.turn()),
        None => format!("{} to move", session.game.turn()),
    };
    writeln!(out, "{state}")
}
