//! The engine as a terminal opponent: levels, hints, draw offers.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use xiangqi::{Color, Game, Move, Position, Standard};
use xiangqi_engine::{Analysis, Control, Engine, Info, Level, Limits, Options, Root, Score};

use super::notation;

/// What the engine found.
#[derive(Clone, Debug)]
pub struct Found {
    pub best: Move,
    pub score: Score,
    pub depth: i32,
}

impl Found {
    pub fn summary(&self) -> String {
        format!("depth {}, {}", self.depth, self.score)
    }
}

fn found(game: &Game, result: &Analysis) -> Found {
    let best =
        result.best.or_else(|| game.legal_moves().first().copied()).expect("a game that goes on has a move");
    Found { best, score: result.score(), depth: result.depth() }
}

/// One line of the engine's thinking.
#[derive(Clone, Debug)]
pub struct Thinking(pub Info);

impl Thinking {
    /// `depth 9  cp 35  120k nodes  C2=5 H8+7 ...`, the PV in WXF from `pos`.
    pub fn line(&self, pos: &Position<Standard>) -> String {
        let i = &self.0;
        let mut p = pos.clone();
        let pv: Vec<String> =
            i.pv.iter()
                .take(8)
                .map_while(|&m| {
                    p.is_legal(m).then(|| {
                        let name = notation::wxf(&p, m);
                        p.play_unchecked(m);
                        name
                    })
                })
                .collect();
        format!(
            "depth {:>2}  {:<9} {:>6}k nodes  {}",
            i.depth,
            i.score.to_string(),
            i.nodes / 1000,
            pv.join(" ")
        )
    }
}

/// The engine at a strength level; clones share one engine (and its hash table).
#[derive(Clone)]
pub struct Opponent {
    level: Level,
    /// The game's seed for the level's random choices.
    seed: u64,
    engine: Arc<Mutex<Engine>>,
}

impl Opponent {
    /// An opponent at `level` whose random choices follow `seed`.
    pub fn new(level: Level, seed: u64) -> Self {
        // The hints search at full strength, so the table is sized for them.
        let engine = Engine::new(Options { hash_mb: 32, ..Options::default() }.with_embedded_net());
        Opponent { level, seed, engine: Arc::new(Mutex::new(engine)) }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// The level's move for the side to move (the game must not be over).
    pub fn best_move(&self, game: &Game, mut on_info: Option<&mut dyn FnMut(Thinking)>) -> Found {
        let root = Root::from_game(game);
        let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
        let result = self.level.play(
            &mut engine,
            &root,
            &Limits::default(),
            &Control::new(),
            self.seed,
            &mut |info| {
                if let Some(f) = on_info.as_mut() {
                    f(Thinking(info.clone()));
                }
            },
        );
        found(game, &result)
    }

    /// The engine's advice for the side to move, at full strength for a second
    /// whatever the opponent's level.
    pub fn hint(&self, game: &Game) -> Found {
        self.search(game, &Limits::move_time(Duration::from_secs(1)), &mut None)
    }

    fn search(&self, game: &Game, limits: &Limits, on_info: &mut Option<&mut dyn FnMut(Thinking)>) -> Found {
        let root = Root::from_game(game);
        let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
        let result = engine.search(&root, limits, &Control::new(), &mut |info: &Info| {
            if let Some(f) = on_info.as_mut() {
                f(Thinking(info.clone()));
            }
        });
        found(game, &result)
    }

    /// Whether the engine, playing `side`, takes a draw: when it judges itself
    /// clearly worse.
    pub fn accepts_draw(&self, game: &Game, side: Color) -> bool {
        let found = self.search(game, &Limits::move_time(Duration::from_millis(300)), &mut None);
        let for_mover = match found.score {
            Score::Cp(v) => v,
            Score::Mate(n) if n > 0 => 10_000,
            Score::Mate(_) => -10_000,
        };
        let for_engine = if game.turn() == side { for_mover } else { -for_mover };
        for_engine <= -50
    }
}
