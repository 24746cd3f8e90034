//! Live updates: a channel per game, one per user, and one for the lobby. With
//! SQLite (one server) a change is published here directly; with PostgreSQL every
//! instance listens on the database (LISTEN/NOTIFY) and publishes to its own
//! sockets, so a change made through one instance reaches sockets on another
//! (see [`relay`]).

pub mod relay;

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::broadcast;

use crate::{
    api::{
        events::Event,
        views::{ChatLine, GameView, StudyView},
    },
    domain::{
        events::{Happening, Listener, Notice},
        games::Loaded,
        studies::Study,
    },
    store::Store,
};

pub const GAME_CHANNEL: &str = "xiangqi_game";
pub const USER_CHANNEL: &str = "xiangqi_user";
pub const LOBBY_CHANNEL: &str = "xiangqi_lobby";
pub const CHAT_CHANNEL: &str = "xiangqi_chat";
pub const TOURNAMENT_CHANNEL: &str = "xiangqi_tournament";
pub const STUDY_CHANNEL: &str = "xiangqi_study";
/// A computer's turn from an instance that leaves the computer to others.
pub const COMPUTER_CHANNEL: &str = "xiangqi_computer";

/// An event, serialised once for every socket it goes to: each socket's copy
/// shares the same bytes.
pub type Wire = axum::extract::ws::Utf8Bytes;

/// An event about a game, with the version of the game's state it carries
/// (none for a chat line): a socket never sends a state older than, or the
/// same as, one it sent already.
#[derive(Clone)]
pub struct GameWire {
    pub version: Option<i64>,
    pub wire: Wire,
}

/// An event about a study, with its version and who may see it (`None`:
/// everyone): a socket whose user is not among them stops watching.
#[derive(Clone)]
pub struct StudyWire {
    pub version: i64,
    pub audience: Option<Arc<Vec<String>>>,
    pub wire: Wire,
}

impl StudyWire {
    pub fn of(study: &Study) -> StudyWire {
        let event = Event::Study { study: Arc::new(StudyView::from(study)) };
        StudyWire { version: study.row.version, audience: study.audience().map(Arc::new), wire: wire(&event) }
    }

    /// Whether `user` may see it.
    pub fn for_user(&self, user: Option<&str>) -> bool {
        self.audience.as_ref().is_none_or(|a| user.is_some_and(|u| a.iter().any(|m| m == u)))
    }
}

/// Channels by key, created when a socket here first watches the key and
/// dropped when its last watcher goes: what the map holds is bounded by what
/// the open sockets watch.
type Channels<T = Wire> = Arc<Mutex<HashMap<String, broadcast::Sender<T>>>>;

pub struct Hub {
    /// This instance's name in the notices it sends to the others: it has
    /// published its own changes from memory and skips their echo.
    origin: String,
    /// The view of each game's latest version built here.
    pub views: GameViews,
    games: Channels<GameWire>,
    users: Channels,
    studies: Channels<StudyWire>,
    lobby: broadcast::Sender<Wire>,
    tournaments: broadcast::Sender<Wire>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            origin: crate::domain::accounts::new_id(),
            views: GameViews::default(),
            games: Channels::default(),
            users: Channels::default(),
            studies: Channels::default(),
            lobby: broadcast::channel(64).0,
            tournaments: broadcast::channel(64).0,
        }
    }
}

/// The view of each game's latest version this instance built, shared by the
/// answer to a change and every socket here that watches the game: a version's
/// view (its legal moves, every move's names) is built once. At most
/// [`KEPT_VIEWS`] games are kept; the next view after that starts afresh.
#[derive(Default)]
pub struct GameViews(Mutex<HashMap<String, Arc<GameView>>>);

/// How many games' latest views are kept.
pub const KEPT_VIEWS: usize = 4096;

impl GameViews {
    /// The view of a game's state, built unless this version's is kept.
    pub fn of(&self, game: &Loaded) -> Arc<GameView> {
        let kept = |map: &HashMap<String, Arc<GameView>>| {
            map.get(&game.row.id).filter(|v| v.summary.version == game.row.version).cloned()
        };
        if let Some(view) = kept(&self.lock()) {
            return view;
        }
        // Built without the lock: other games' views need not wait for it.
        let view = Arc::new(GameView::from(game));
        let mut map = self.lock();
        if map.len() >= KEPT_VIEWS {
            map.clear();
        }
        map.insert(game.row.id.clone(), view.clone());
        view
    }

    /// How many games' views are kept.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<GameView>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One socket's watch of a channel. Dropping the last watch of a keyed channel
/// (a game's, a user's) removes the channel.
pub struct Watch<T: Clone> {
    rx: broadcast::Receiver<T>,
    keyed: Option<(Channels<T>, String)>,
}

impl<T: Clone> Watch<T> {
    pub async fn recv(&mut self) -> Result<T, broadcast::error::RecvError> {
        self.rx.recv().await
    }
}

impl<T: Clone> Drop for Watch<T> {
    fn drop(&mut self) {
        let Some((channels, key)) = &self.keyed else { return };
        let mut map = channels.lock().unwrap_or_else(|e| e.into_inner());
        // This watch's own receiver still counts: the channel goes if it is the last.
        if map.get(key).is_some_and(|tx| tx.receiver_count() <= 1) {
            map.remove(key);
        }
    }
}

pub fn wire(event: &Event) -> Wire {
    Wire::from(serde_json::to_string(event).unwrap_or_default())
}

pub fn game_wire(event: &Event) -> GameWire {
    let version = match event {
        Event::Game { game } => Some(game.summary.version),
        _ => None,
    };
    GameWire { version, wire: wire(event) }
}

fn subscribe<T: Clone>(channels: &Channels<T>, key: &str) -> Watch<T> {
    let mut map = channels.lock().unwrap_or_else(|e| e.into_inner());
    let rx = map.entry(key.to_string()).or_insert_with(|| broadcast::channel(64).0).subscribe();
    Watch { rx, keyed: Some((channels.clone(), key.to_string())) }
}

fn send<T>(channels: &Channels<T>, key: &str, message: T) {
    let map = channels.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(tx) = map.get(key) {
        // With no receiver left the message is dropped; the watches that
        // went took the channel with them.
        let _ = tx.send(message);
    }
}

/// Whether a socket on this instance listens on a channel.
fn watched<T>(channels: &Channels<T>, key: &str) -> bool {
    let map = channels.lock().unwrap_or_else(|e| e.into_inner());
    map.get(key).is_some_and(|tx| tx.receiver_count() > 0)
}

fn held<T>(channels: &Channels<T>) -> usize {
    channels.lock().unwrap_or_else(|e| e.into_inner()).len()
}

impl Hub {
    /// Whether a socket on this instance watches a game: an event nobody here
    /// would hear is not built.
    pub fn game_watched(&self, id: &str) -> bool {
        watched(&self.games, id)
    }

    pub fn watch_game(&self, id: &str) -> Watch<GameWire> {
        subscribe(&self.games, id)
    }

    pub fn watch_user(&self, name: &str) -> Watch<Wire> {
        subscribe(&self.users, name)
    }

    pub fn watch_study(&self, id: &str) -> Watch<StudyWire> {
        subscribe(&self.studies, id)
    }

    pub fn study_watched(&self, id: &str) -> bool {
        watched(&self.studies, id)
    }

    /// Sends a study's new state to its watchers connected to this instance.
    pub fn publish_local_study(&self, study: &Study) {
        if self.study_watched(&study.row.id) {
            send(&self.studies, &study.row.id, StudyWire::of(study));
        }
    }

    /// A study changed: its watchers here get its state; the other
    /// instances hear its version and id (and load it if a socket of theirs
    /// watches it).
    pub fn study_changed(&self, store: &Store, study: &Study) {
        self.publish_local_study(study);
        let payload = format!("{}:{}:{}", self.origin, study.row.version, study.row.id);
        Self::notify_all(store, STUDY_CHANNEL, &payload);
    }

    pub fn watch_lobby(&self) -> Watch<Wire> {
        Watch { rx: self.lobby.subscribe(), keyed: None }
    }

    /// How many games' and users' channels this instance holds.
    pub fn channels(&self) -> usize {
        held(&self.games) + held(&self.users) + held(&self.studies)
    }

    /// Sends an event to the watchers of a game connected to this instance.
    pub fn publish_local_game(&self, id: &str, event: &Event) {
        send(&self.games, id, game_wire(event));
    }

    pub fn publish_local_user(&self, note: Notice) {
        if !watched(&self.users, &note.user) {
            return;
        }
        let text = note.kind.text(note.from.as_deref().unwrap_or(""));
        let event =
            Event::Notice { kind: note.kind, from: note.from, game: note.game, study: note.study, text };
        send(&self.users, &note.user, wire(&event));
    }

    pub fn publish_local_lobby(&self) {
        let _ = self.lobby.send(wire(&Event::Lobby));
    }

    /// Every socket hears of every tournament's changes: they are few, and a
    /// list of tournaments needs them as much as a tournament's own page.
    pub fn watch_tournaments(&self) -> Watch<Wire> {
        Watch { rx: self.tournaments.subscribe(), keyed: None }
    }

    pub fn publish_local_tournament(&self, id: &str) {
        let _ = self.tournaments.send(wire(&Event::Tournament { id: id.to_string() }));
    }

    /// Tells every instance on the database (this one included) on `channel`;
    /// false on SQLite, where only this instance is to be told.
    fn notify_all(store: &Store, channel: &'static str, payload: &str) -> bool {
        store.announce(channel, payload.to_string())
    }

    /// A game changed: its watchers here get `event`, built from the state in
    /// memory; the other instances hear the game and its version (and load it
    /// if a socket of theirs watches it).
    pub fn game_changed(&self, store: &Store, id: &str, version: i64, event: impl FnOnce() -> Event) {
        if self.game_watched(id) {
            self.publish_local_game(id, &event());
        }
        Self::notify_all(store, GAME_CHANNEL, &format!("{}:{version}:{id}", self.origin));
    }

    /// What another instance's notice on [`GAME_CHANNEL`] or [`CHAT_CHANNEL`]
    /// names (a game's version or a chat line's number, and the game), unless
    /// this instance sent it.
    pub fn from_elsewhere<'p>(&self, payload: &'p str) -> Option<(i64, &'p str)> {
        let (origin, rest) = payload.split_once(':')?;
        let (number, game) = rest.split_once(':')?;
        (origin != self.origin).then_some((number.parse().ok()?, game))
    }

    pub fn notify(&self, store: &Store, note: Notice) {
        let payload = serde_json::to_string(&note).unwrap_or_default();
        if !Self::notify_all(store, USER_CHANNEL, &payload) {
            self.publish_local_user(note);
        }
    }

    /// A new chat line: watchers of the game here get `event`; the other
    /// instances read the line back by its number.
    pub fn chat(&self, store: &Store, game: &str, seq: i64, event: &Event) {
        self.publish_local_game(game, event);
        Self::notify_all(store, CHAT_CHANNEL, &format!("{}:{seq}:{game}", self.origin));
    }

    pub fn tournament_changed(&self, store: &Store, id: &str) {
        if !Self::notify_all(store, TOURNAMENT_CHANNEL, id) {
            self.publish_local_tournament(id);
        }
    }

    /// Passes a job for the computer to the instances that search its moves.
    pub fn computer_wanted(store: &Store, note: &str) {
        if !Self::notify_all(store, COMPUTER_CHANNEL, note) {
            tracing::warn!("the computer's job {note} is lost until an instance with the computer starts");
        }
    }

    pub fn lobby_changed(&self, store: &Store) {
        if !Self::notify_all(store, LOBBY_CHANNEL, "") {
            self.publish_local_lobby();
        }
    }
}

/// The domain's listener: what happens becomes the events of open pages,
/// here from memory and on the other instances through the database.
pub struct Live {
    pub hub: Arc<Hub>,
    store: Store,
}

impl Live {
    pub fn new(hub: Arc<Hub>, store: Store) -> Live {
        Live { hub, store }
    }
}

impl Listener for Live {
    fn hear(&self, what: Happening<'_>) {
        let (hub, store) = (&self.hub, &self.store);
        match what {
            Happening::Game(game) => {
                let event = || Event::Game { game: hub.views.of(game) };
                hub.game_changed(store, &game.row.id, game.row.version, event);
            }
            Happening::Study(study) => hub.study_changed(store, study),
            Happening::Chat(line) => {
                let event = Event::Chat { game: line.game_id.clone(), line: ChatLine::from(line) };
                hub.chat(store, &line.game_id, line.seq, &event);
            }
            Happening::Notice(note) => hub.notify(store, note),
            Happening::Lobby => hub.lobby_changed(store),
            Happening::Tournament(id) => hub.tournament_changed(store, id),
            Happening::Computer { game, state, ahead } => {
                hub.publish_local_game(game, &Event::Computer { game: game.to_string(), state, ahead });
            }
            Happening::ComputerWanted(note) => Hub::computer_wanted(store, note),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_versions_view_is_built_once_and_a_new_version_gets_its_own() {
        use xiangqi::{RuleSet, Variant};

        use crate::domain::{board::Board, games::new_game_row};

        use crate::model::clock::ClockSpec;
        let row = new_game_row(
            "game12345678".into(),
            "red",
            "black",
            (Variant::Standard, RuleSet::Asian),
            ClockSpec::Correspondence { hours: 48 },
            1,
        );
        let game = Board::startpos(Variant::Standard, RuleSet::Asian).unwrap();
        let loaded = Loaded { row, moves: Arc::default(), game: Arc::new(game), names: Arc::default() };
        let views = GameViews::default();
        let first = views.of(&loaded);
        assert!(Arc::ptr_eq(&first, &views.of(&loaded)), "the answer and the sockets share one view");
        let mut next = loaded.clone();
        next.row.version += 1;
        let second = views.of(&next);
        assert!(!Arc::ptr_eq(&first, &second));
        assert_eq!((second.summary.version, views.len()), (next.row.version, 1), "one view kept per game");
    }

    #[test]
    fn an_instance_skips_the_echo_of_its_own_notices() {
        let (here, there) = (Hub::default(), Hub::default());
        let own = format!("{}:7:game12345678", here.origin);
        assert_eq!(here.from_elsewhere(&own), None, "published from memory already");
        assert_eq!(there.from_elsewhere(&own), Some((7, "game12345678")));
        assert_eq!(there.from_elsewhere("garbage"), None);
    }
}
