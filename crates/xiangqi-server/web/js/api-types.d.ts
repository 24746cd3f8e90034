// The JSON types of the API (/api/v1), generated from the OpenAPI document the
// server builds (/api/v1/openapi.json). Do not edit: run
// `XIANGQI_BLESS=1 cargo test -p xiangqi-server --test api_document` to write it
// anew. The UI names these types through models.js.

/** An act whose number in a window of time is limited. */
export type Act = "signups" | "failed_logins" | "challenges" | "messages" | "chat_lines" | "tournaments" | "analyses" | "reviews" | "study_edits" | "streaks" | "puzzle_moves";

/** Why an analysis ended. */
export type AnalysisEnd = "limit" | "replaced" | "over";

/**
 * What an analysis stream (`GET /analysis`, Server-Sent Events) carries: each
 * event's `event:` field is its `type`, and its `data:` is this object as JSON.
 */
export type AnalysisEvent =
  /** Every engine is busy: the search waits behind `waiting` others (this one included). */
  | {
      type: "queued";
      waiting: number;
    }
  /** A depth completed: the evaluation and the best line so far. */
  | (AnalysisInfo & {
      type: "info";
    })
  /** The search has ended (the stream closes after this): why, and its best move. */
  | {
      /** Null when the position is over. */
      best?: MoveNamesView | null;
      depth: number;
      nodes: number;
      reason: AnalysisEnd;
      type: "done";
    }
  /** The search could not run (the server is stopping). */
  | {
      message: string;
      type: "error";
    };

/** What the engine found at one depth. */
export type AnalysisInfo = {
  /** The depth completed. */
  depth: number;
  /**
   * Which line this is, when several were asked for: 1 for the best, 2
   * for the best of the other first moves, and so on. Each depth sends
   * its lines in this order.
   */
  line: number;
  /** Nodes searched so far. */
  nodes: number;
  /** Nodes searched per second. */
  nps: number;
  /** The principal variation: this line's moves, from the side to move. */
  pv: MoveNamesView[];
  /** The same from Red's view. */
  red: ScoreView;
  /** From the side to move's view. */
  score: ScoreView;
  /** The deepest ply any line reached. */
  seldepth: number;
  /** Milliseconds thought so far. */
  time: number;
};

/** An arrow from one point to another. */
export type Arrow = {
  brush: Brush;
  /** A cell name (`h2`; `e4` on the hex board). */
  from: string;
  to: string;
};

/** Where a user's first attempt at a puzzle stands. */
export type AttemptResult = "open" | "solved" | "failed";

/** Ask to be paired with the next player who asks for the same settings. */
export type AutoMatch = {
  clock: ClockSpec;
  /** Rated or casual (only equal requests pair); the player's default if left out. */
  rated?: boolean | null;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  /** a board, or null */
  variant?: "standard" | "hex" | null;
};

/**
 * A board, its rules and a position on it. Each may be left out: the board
 * follows from the rules, the rules from the board (its usual ones), and with
 * neither it is the standard board under the asian rules; the position is
 * the board's start.
 */
export type BoardSpec = {
  /** The first position as FEN; the board's start position if left out. */
  fen?: string | null;
  /** a rule set, or null */
  rules?: "itsyourturn" | "asian" | "casual" | "hex" | null;
  /** a board, or null */
  variant?: "standard" | "hex" | null;
};

/** The colour of an arrow or a marked point. */
export type Brush = "green" | "red" | "blue" | "yellow";

/** What a rating measures: one board at one pace. */
export type Category = "standard_correspondence" | "standard_live" | "hex_correspondence" | "hex_live";

export type ChallengeAnswer = {
  challenge: ChallengeView;
};

/** A page of challenges. */
export type ChallengePage = {
  challenges: ChallengeView[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
};

/** Where a challenge stands. */
export type ChallengeStatus = "open" | "accepted" | "cancelled" | "lapsed";

export type ChallengeView = {
  /** An auto-match request waiting for a partner. */
  auto: boolean;
  clock: ClockSpec;
  /** The creator's side. */
  color: SideChoice;
  created: number;
  creator: string;
  /** The game it started, once accepted. */
  game?: string | null;
  id: string;
  /** The ladder it climbs, for a ladder challenge. */
  ladder?: Category | null;
  /** The one challenged; null for the waiting room. */
  opponent?: string | null;
  /** Whether its game will be rated. */
  rated: boolean;
  /** The game it offers a rematch of, if it is a rematch. */
  rematch_of?: string | null;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  status: ChallengeStatus;
};

/** A chapter's new place in the study's list. */
export type ChapterPlace = {
  /** 0 for the first; past the end, the last. */
  place: number;
  version: number;
};

/** A chapter's new title. */
export type ChapterRename = {
  title: string;
  version: number;
};

/** A chapter: a board, rules and start, and its tree of moves. */
export type ChapterView = {
  id: string;
  /** Every position, each before the ones after it. */
  nodes: StudyNode[];
  /**
   * The ECCO code of the main line's opening (names from `GET /openings`),
   * null when it has none.
   */
  opening?: string | null;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  start_fen: string;
  title: string;
  /** a board */
  variant: "standard" | "hex";
};

export type ChatAnswer = {
  /** Oldest first. */
  lines: ChatLine[];
};

/** A line of a game's chat. `body` is the text as typed: show it as text. */
export type ChatLine = {
  at: number;
  author: string;
  body: string;
  /** 1, 2, 3, ... within the game. */
  seq: number;
};

export type ChatLineAnswer = {
  line: ChatLine;
};

/** How many moves of each class a side played. */
export type ClassCounts = {
  blunder: number;
  good: number;
  inaccuracy: number;
  mistake: number;
};

/**
 * A message from the client: start or stop watching a game or a study (one
 * its user may see).
 */
export type ClientMessage = {
  unwatch?: string | null;
  unwatch_study?: string | null;
  watch?: string | null;
  watch_study?: string | null;
};

/**
 * A time control. Correspondence: `hours` to make each move (48 is two days;
 * the seed's tournament kinds are "Main", 48 hours, and "Fast", 28 hours).
 * Live: `base` milliseconds per side, plus `increment` milliseconds after each move.
 */
export type ClockSpec =
  /** Hours per move, 1 to 720. */
  | {
      hours: number;
      kind: "correspondence";
    }
  /** Base time 10 s to 3 h and an increment of 0 to 10 minutes, in milliseconds. */
  | {
      base: number;
      increment: number;
      kind: "live";
    };

/**
 * Live clocks: time left when the running clock started at `since`; a client
 * subtracts the time passed since then from the running side.
 */
export type ClocksView = {
  black: number;
  red: number;
  /** a colour, or null */
  running?: "red" | "black" | null;
  since: number;
};

/** One of the computer's levels. */
export type ComputerLevel = {
  /** Its strength in Elo above level 1, measured by matches between neighbouring levels. */
  elo: number;
  level: number;
  /** The account that plays at this level (`computer.3`). */
  player: string;
};

export type ComputerLevels = {
  levels: ComputerLevel[];
  /** Games one person may play against the computer at once. */
  max_games: number;
};

/** What the computer is doing about its move in a game. */
export type ComputerState = "thinking" | "queued";

/**
 * My conditional moves in a game: each line from the opponent's next move,
 * mine last, every move in every notation; a line that another continues is
 * given once, as the longer.
 */
export type ConditionalsAnswer = {
  lines: MoveNamesView[][];
};

/**
 * Conditional moves: lines of "if they play X, I answer Y", kept while the
 * opponent is to move in a correspondence game.
 */
export type ConditionalsRequest = {
  /**
   * Each line begins with the opponent's next move and alternates, ending
   * with my answer; moves in any notation (`h2e2`, `C2=5`, `炮二平五`).
   * Lines that begin alike form a tree: each move of the opponent's has one
   * answer. None takes them all back. At most 1,000 moves in all.
   */
  lines: string[][];
  /** The number of moves played now (the opponent is to make move `ply + 1`). */
  ply: number;
};

/**
 * Whether a move waits for the Submit button, by the game's pace. By default
 * a live game's move is played on the click or drop, and a correspondence
 * move waits for Submit (a slip there costs days).
 */
export type Confirmations = {
  blitz: boolean;
  bullet: boolean;
  classical: boolean;
  correspondence: boolean;
  rapid: boolean;
};

/** The messages with one person: the latest, and how many of theirs are unread. */
export type ConversationView = {
  last: MessageView;
  unread: number;
  with: string;
};

/** Conversations, the latest first. */
export type ConversationsPage = {
  conversations: ConversationView[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
};

/** Labels along the board's edges. */
export type Coordinates = "off" | "iccs" | "wxf";

/** What waits for the logged-in user: for the page header and the tab title. */
export type Counts = {
  /** Open challenges to me, waiting for my answer. */
  challenges: number;
  /** Games waiting for my move. */
  my_turn: number;
  unread_messages: number;
};

/** A user id and password, to register or log in. */
export type Credentials = {
  /** Registering only: the code of the invitation followed (`/#/join/{code}`). */
  invite?: string | null;
  /** 3-20 letters, digits, `_` or `-`; unique ignoring case. */
  name: string;
  /** 8-200 characters. */
  password: string;
};

/** One round of one player's tournament: the crosstable's cell. */
export type CrossCell = {
  /** a colour, or null */
  color?: "red" | "black" | null;
  game?: string | null;
  /** Null for a bye. */
  opponent?: string | null;
  /** Null while the game is played (or its round has not begun). */
  result?: PlayerResult | null;
  round: number;
};

/** What a player does about a draw. */
export type DrawAction = "offer" | "accept" | "decline";

export type DrawRequest = {
  action: DrawAction;
};

/** A player signed up. */
export type EntrantView = {
  joined: number;
  name: string;
  /** The rating in the tournament's category at the start; null before it. */
  rating?: number | null;
  /** 1 is the highest rated at the start; null before it. */
  seed?: number | null;
  /** The round in which the player withdrew, if they did after the start. */
  withdrawn_round?: number | null;
};

/** The body of every refusal. */
export type ErrorBody = Refusal & {
  error: ErrorCode;
  /** In English words. */
  message: string;
  /**
   * With `too_many_requests`: seconds to wait before trying again, as in the
   * `Retry-After` header.
   */
  retry_after?: number | null;
};

/** What kind of refusal an error is; `reason` says which, `message` says it in words. */
export type ErrorCode = "bad_request" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "illegal_move" | "too_many_requests" | "payload_too_large" | "internal" | "unavailable";

/** A message from the server. */
export type Event =
  /** A watched game's new state. */
  | {
      game: GameView;
      type: "game";
    }
  /** Something for the logged-in user: a challenge came, a game needs them. */
  | {
      /** The player it comes from, if any. */
      from?: string | null;
      /** The game it is about, if any. */
      game?: string | null;
      kind: NoticeKind;
      /** The study it is about, if any. */
      study?: string | null;
      /** The notice in English words, for clients that do not translate `kind`. */
      text: string;
      type: "notice";
    }
  /** The waiting room or someone's challenges changed: lists of challenges are stale. */
  | {
      type: "lobby";
    }
  /** A new line in the chat of a watched game. */
  | {
      game: string;
      line: ChatLine;
      type: "chat";
    }
  /**
   * The computer's progress on its move in a watched game (from the server
   * instance that searches it).
   */
  | {
      /** Searches ahead of it in the queue (0 while it thinks). */
      ahead: number;
      game: string;
      state: ComputerState;
      type: "computer";
    }
  /**
   * A tournament changed (an entry, a withdrawal, a round, its end): pages
   * showing it, or lists of tournaments, load it again.
   */
  | {
      id: string;
      type: "tournament";
    }
  /** A watched study's new state, after an edit by anyone. */
  | {
      study: StudyView;
      type: "study";
    };

/**
 * The opening explorer's answer for a position: the moves played there, the
 * most played first (at most 100). Only the first 40 plies of each game count.
 */
export type ExplorerAnswer = {
  /** The position (FEN). */
  fen: string;
  moves: ExplorerMoveView[];
  /**
   * The ECCO code of the opening this very position defines, if it is one
   * (names from `GET /openings`).
   */
  opening?: string | null;
  /** How many plies of each game are counted. */
  plies: number;
  /** a board */
  variant: "standard" | "hex";
};

/** A move played from a position, and how its games went. */
export type ExplorerMoveView = {
  /** The players' average rating in those games; null if none was known. */
  average_rating?: number | null;
  black_wins: number;
  chinese: string;
  draws: number;
  /** Games that played it from here (a game that came back here counts once). */
  games: number;
  /** The move in ICCS (`h2e2`; cells on the hex board). */
  iccs: string;
  red_wins: number;
  wxf: string;
};

/** Finished games found in the database, the most recently ended first. */
export type FoundGamesPage = {
  games: GameSummary[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
};

export type GameAnswer = {
  game: GameView;
};

/** Where a game stands. */
export type GameStatus = "active" | "finished" | "aborted";

/** A game without its moves: what lists show. */
export type GameSummary = {
  black: string;
  /** Whether the side to move is in check. */
  check: boolean;
  clock: ClockSpec;
  /** Live games' clocks; null for correspondence. */
  clocks?: ClocksView | null;
  /** Correspondence: when the side to move must have moved; else null. */
  deadline?: number | null;
  /** a colour, or null */
  draw_offer?: "red" | "black" | null;
  fen: string;
  id: string;
  /** The last move in ICCS, to outline on the board. */
  last_move?: string | null;
  /** How it ended; null while it is played. */
  outcome?: OutcomeView | null;
  /** Moves played. */
  ply: number;
  /** Whether the result changes the players' ratings. */
  rated: boolean;
  red: string;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  start_fen: string;
  status: GameStatus;
  /** The tournament round it is played in, if any. */
  tournament?: TournamentGameRef | null;
  /** a colour */
  turn: "red" | "black";
  /** When it last changed. */
  updated: number;
  /** a board */
  variant: "standard" | "hex";
  /** Grows by one with every change; a client that sees a gap reloads. */
  version: number;
};

/** A game in full. */
export type GameView = GameSummary & {
  /** The moves the side to move may play now (ICCS, sorted); empty once it is over. */
  legal: string[];
  moves: MoveView[];
  /**
   * The game's opening: its ECCO code (`C45`; names in every language from
   * `GET /openings`), or null when it has none (a set-up start, the hex
   * board, no move yet).
   */
  opening?: string | null;
  /** Its pace, from its clock (what a player's move confirmations go by). */
  speed: Speed;
};

/** Who is here, a page at a time: the most recently seen first, my buddies first within the page. */
export type HerePage = {
  /** The `after` of the next page; null on the last. */
  next?: string | null;
  users: PersonView[];
};

/** A player's rating history in a category, oldest first (the latest 500 games). */
export type HistoryAnswer = {
  category: Category;
  points: HistoryPointView[];
};

/** A player's rating after a rated game. */
export type HistoryPointView = {
  at: number;
  deviation: number;
  game: string;
  rating: number;
};

/** A page of the names on my ignore list, by name. */
export type IgnoredAnswer = {
  /** The `after` of the next page; null on the last. */
  next?: string | null;
  users: string[];
};

/** Why a move was not played. */
export type Illegality = "unreadable" | "ambiguous" | "off_board" | "no_piece" | "not_your_piece" | "own_piece" | "not_a_move" | "generals_face" | "leaves_general_in_check" | "forbidden" | "no_such_move" | "over";

/** What came of an upload: the file's format, the games kept and those refused. */
export type ImportAnswer = {
  /** Records of the file already in my collection: not kept or counted again. */
  duplicates: number;
  /** The encoding a text file was read in; null for a binary format. */
  encoding?: TextEncoding | null;
  /** The format the file was read as, told by its content. */
  format: RecordFormat;
  kept: ImportedGameView[];
  refused: RefusedGameView[];
};

/**
 * A line of an import answered as it goes (`?progress=true`): progress lines,
 * then the answer or the refusal.
 */
export type ImportEvent =
  | {
      progress: ImportProgress;
    }
  | {
      answer: ImportAnswer;
    }
  | {
      error: ErrorBody;
    };

/** Why a game of an imported file was refused. */
export type ImportProblem = "tag" | "fen" | "move" | "unclosed" | "variant" | "limit" | "empty" | "layout";

/** How far the reading of an upload has come. */
export type ImportProgress = {
  /** Records replayed so far. */
  checked: number;
  /** Records in the file; 0 while the file itself is being read. */
  total: number;
};

/** An imported game with its moves. */
export type ImportedGameAnswer = {
  game: ImportedGameView;
  /** What the record's rule set would have judged on the way, in order. */
  judged: NotedView[];
  /** The main line in ICCS, in order. */
  moves: string[];
  /**
   * The whole record as PGN with its variations and comments (moves in
   * ICCS); the main line alone for a game imported before records were
   * kept whole.
   */
  record: string;
  /**
   * The record's tree, each position after its parent and the main line
   * before its variations: at most 2,000 positions.
   */
  tree: RecordNodeView[];
  /** Whether the record holds more positions than `tree` (its file holds them all). */
  tree_cut: boolean;
};

/** A game imported into my collection, without its moves. */
export type ImportedGameView = {
  black: string;
  date: string;
  event: string;
  id: string;
  /** When it was imported. */
  imported: number;
  /**
   * Its opening's ECCO code (names from `GET /openings`); null when it has
   * none or is not named yet.
   */
  opening?: string | null;
  ply: number;
  red: string;
  /**
   * The result as the record wrote it (`1-0`, `0-1`, `1/2-1/2`, or in
   * words such as `红胜`), or `*` where it gave none (unknown).
   */
  result: string;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  start_fen: string;
  /** a colour, or null */
  winner?: "red" | "black" | null;
};

/** My imported games, the most recently imported first. */
export type ImportedPage = {
  games: ImportedGameView[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
};

/** How many imported games were deleted. */
export type ImportsDeleted = {
  deleted: number;
};

export type InvitationAnswer = {
  invitation: InvitationView;
};

/** What an invitation link shows before registering: who invites. */
export type InvitationPreview = {
  challenge?: InvitedGameView | null;
  inviter: string;
};

/** An invitation to hand to a friend. */
export type InvitationView = {
  /** The challenge waiting for whoever registers through it, if any. */
  challenge?: InvitedGameView | null;
  code: string;
  created: number;
  /** The address to share, relative to the site (`/#/join/{code}`). */
  link: string;
  /** How many have registered through it. */
  uses: number;
};

/** My invitations, newest first. */
export type InvitationsAnswer = {
  invitations: InvitationView[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
};

export type InvitedChallenge = {
  clock: ClockSpec;
  /** The inviter's side. */
  color: SideChoice;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
};

export type InvitedGameView = {
  clock: ClockSpec;
  /** The inviter's side. */
  color: SideChoice;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
};

/** The place a player took on joining. */
export type JoinedLadder = {
  position: number;
};

/** What a rule set would have said at a move of an imported record. */
export type Judgement = "ended" | "fourth_check" | "two_point_chase";

/** A page of a ladder's open challenges. */
export type LadderChallengePage = {
  challenges: LadderChallengeView[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
};

/** An open ladder challenge. */
export type LadderChallengeView = {
  challenge: ChallengeView;
  /** When it counts as lost by the one challenged if not accepted. */
  expires: number;
};

/** A ladder result: a game, or a challenge the defender let lapse. */
export type LadderResultView = {
  at: number;
  challenger: string;
  /** The challenger won (and took the defender's place). */
  challenger_won: boolean;
  defender: string;
  /** The game; null when the challenge lapsed. */
  game?: string | null;
};

/** A ladder: a page of places from the top, its open challenges, its latest results. */
export type LadderView = {
  category: Category;
  /**
   * Open ladder challenges, oldest first, the first page
   * (`GET /ladders/{category}/challenges` walks on); each lapses at `expires`.
   */
  challenges: LadderChallengeView[];
  /** The `after` of the next page of challenges; null on the last. */
  challenges_next?: string | null;
  /** Pass as `after` for the next page of places; null on the last. */
  next?: string | null;
  /** The latest 20 results, newest first. */
  results: LadderResultView[];
  rungs: RungView[];
};

/** A language of the site. */
export type Language = "en" | "zh-Hans" | "zh-Hant" | "vi";

/** A leaderboard row. */
export type LeaderView = {
  deviation: number;
  games: number;
  name: string;
  rating: number;
};

/** The best established ratings of a category, highest first. */
export type LeadersPage = {
  category: Category;
  leaders: LeaderView[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
};

/** Every position of a line, from the one it starts at. */
export type LineAnswer = {
  /** The start and then one per move: one more than the moves. */
  positions: LinePosition[];
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  /** a board */
  variant: "standard" | "hex";
};

/** One position along a line. */
export type LinePosition = {
  /** Whether the side to move is in check. */
  check: boolean;
  fen: string;
  /** The moves the side to move may play (ICCS, sorted); empty when the game is over. */
  legal: string[];
  /** How the game ended here, if it did (checkmate, stalemate, a repetition rule...). */
  outcome?: OutcomeView | null;
  /** The move that led here; null for the first position. */
  played?: MoveNamesView | null;
  /** a colour */
  turn: "red" | "black";
};

/**
 * A line of moves from a position. The board follows from the rules when it
 * is left out, the rules from the board (its usual ones), and with neither
 * it is the standard board under the asian rules.
 */
export type LineRequest = BoardSpec & {
  /**
   * Moves played on from it, each in any notation the board reads (ICCS,
   * WXF or Chinese on the standard board; cell names on the hex board).
   */
  moves?: string[];
};

/** Games being played, the most recently moved first. */
export type LiveGames = {
  games: GameSummary[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
};

/**
 * A user's lobby: open challenges, oldest first: a page of the waiting room,
 * and at most 100 to and from me.
 */
export type LobbyView = {
  /** Challenges to me, oldest first: the first page (`GET /challenges/incoming` walks on). */
  incoming: ChallengeView[];
  /** The `after` of the next page of challenges to me; null on the last. */
  incoming_next?: string | null;
  /** The `after` of the waiting room's next page; null on the last. */
  next?: string | null;
  /** Others' challenges to anyone: the waiting room, a page at a time. */
  open: ChallengeView[];
  /**
   * Mine, auto-match requests included (one holds at most as many open
   * challenges as the server allows).
   */
  outgoing: ChallengeView[];
};

/** A marked point. */
export type Mark = {
  /** A cell name. */
  at: string;
  brush: Brush;
};

export type MessageAnswer = {
  message: MessageView;
};

/** A private message. `body` is the text as typed: show it as text. */
export type MessageView = {
  body: string;
  from: string;
  id: string;
  /** When the recipient read it; null while unread. */
  read?: number | null;
  sent: number;
  to: string;
};

/** A page of messages, newest first. */
export type MessagesPage = {
  messages: MessageView[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
};

/**
 * How a move compares with the engine's choice, by how much it lowered the
 * mover's evaluation (see `domain::analysis::classify`).
 */
export type MoveClass = "good" | "inaccuracy" | "mistake" | "blunder";

/** A move's written forms. */
export type MoveNamesView = {
  /** In Chinese (`炮二平五`); on the hex board, the glyph and the cells (`兵e4-e5`). */
  chinese: string;
  /** The two cells (`h2e2`; `e4e5` on the hex board). */
  iccs: string;
  /** WXF (`C2=5`); on the hex board, the piece's letter and the cells (`Pe4-e5`). */
  wxf: string;
};

/** A move played, in three notations. */
export type MoveView = {
  /** When it was played. */
  at: number;
  /** In Chinese (`炮二平五`); on the hex board, the glyph and the cells (`兵e4-e5`). */
  chinese: string;
  /** The two cells (`h2e2`; `e4e5` on the hex board). */
  iccs: string;
  /** WXF (`C2=5`); on the hex board, the piece's letter and the cells (`Pe4-e5`). */
  wxf: string;
};

/**
 * My games: those waiting for my move, those waiting for my opponent's (at most
 * 200 each, most recently changed first), and a page of finished ones, newest first.
 */
export type MyGames = {
  finished: GameSummary[];
  /**
   * Of the first page of games being played (the 100 most recently
   * changed), those waiting for my move.
   */
  my_turn: GameSummary[];
  /** Pass as `after` for the next page of finished games; null on the last. */
  next?: string | null;
  /** The `after` of the next page of games being played (`GET /games/playing`); null on the last. */
  playing_next?: string | null;
  /** Of the same page, those waiting for my opponents. */
  their_turn: GameSummary[];
};

/** A challenge to a named player, or (without `opponent`) to anyone in the waiting room. */
export type NewChallenge = {
  clock: ClockSpec;
  /** The creator's side. */
  color: SideChoice;
  opponent?: string | null;
  /** Whether the game changes ratings; the creator's default if left out. */
  rated?: boolean | null;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  /** a board, or null */
  variant?: "standard" | "hex" | null;
};

/**
 * A new chapter: from the start of a board, from a position (`fen`), or from
 * a game record (`pgn`, standard board: its start, moves, variations and
 * comments, arrows and marks from `[%cal]` and `[%csl]`).
 */
export type NewChapter = BoardSpec & {
  pgn?: string | null;
  /** 1-80 characters; from the record's players, or "Chapter N", if left out. */
  title?: string | null;
  version: number;
};

/** A line in a game's chat. */
export type NewChatLine = {
  /** 1-500 characters, kept as typed. */
  body: string;
};

/** A game against the computer. */
export type NewComputerGame = {
  clock: ClockSpec;
  /** Your side. */
  color: SideChoice;
  /**
   * A position to start from (FEN on the board played, the side to move
   * included); the board's start when left out. The position must be legal
   * and not over.
   */
  fen?: string | null;
  /** 1 (a beginner can win) to 8 (the engine at full strength); see `GET /computer/levels`. */
  level: number;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  /** a board, or null */
  variant?: "standard" | "hex" | null;
};

/** A new invitation, optionally with a challenge for whoever registers through it. */
export type NewInvitation = {
  challenge?: InvitedChallenge | null;
};

/** A ladder challenge. */
export type NewLadderChallenge = {
  /** Someone at most 20 places above you. */
  opponent: string;
};

/** A private message. */
export type NewMessage = {
  /** 1-2000 characters, kept as typed. */
  body: string;
  /** The recipient's user id. */
  to: string;
};

/** A piece of news. */
export type NewNews = {
  /** 1-10,000 characters, kept as written. */
  body: string;
  /** 1-200 characters. */
  title: string;
};

/** A timed streak on a board. */
export type NewStreak = {
  /** a board, or null */
  variant?: "standard" | "hex" | null;
};

/** A new study (with one chapter from the start of the standard board). */
export type NewStudy = {
  /** 1-80 characters. */
  title: string;
  /** `private` (members only) if left out. */
  visibility?: Visibility | null;
};

/** A new tournament. */
export type NewTournament = {
  /** The rating category its games count in; the time control must be of its pace. */
  category: Category;
  /** Correspondence (the seed's "Main" is 48 hours a move, "Fast" 28) or live. */
  clock: ClockSpec;
  format: TournamentFormat;
  /** At most 64 (a round-robin: 20). */
  max_players: number;
  /** At least 3; fewer signed up at the start time cancel it. */
  min_players: number;
  /** 1-80 characters. */
  name: string;
  /** Swiss only: 1 or more, fewer than `min_players`. Left out for a round-robin. */
  rounds?: number | null;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  /**
   * When it starts (milliseconds since the epoch, at most 90 days ahead);
   * left out or null: as soon as `max_players` have signed up.
   */
  starts?: number | null;
};

export type NewsAnswer = {
  news: NewsItem;
};

/** A piece of site news. Title and body are text as written: show them as text. */
export type NewsItem = {
  author: string;
  body: string;
  id: string;
  posted: number;
  title: string;
};

/** News, newest first. */
export type NewsPage = {
  news: NewsItem[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
};

/** A node's comment, arrows or marked points: those given replace the old. */
export type NodeAnnotation = {
  arrows?: Arrow[] | null;
  /** Up to 2000 characters; empty to clear. */
  comment?: string | null;
  marks?: Mark[] | null;
  version: number;
};

/** How move lists name moves. */
export type Notation = "wxf" | "chinese" | "iccs";

/**
 * What the rule set would have said at a move of an imported record, which
 * the players played on from.
 */
export type NotedView = {
  judgement: Judgement;
  /** How the game would have ended, for `ended`. */
  outcome?: OutcomeView | null;
  /** The move it fell on, 1 for the record's first. */
  ply: number;
};

/** What a notice to a user is about. */
export type NoticeKind = "challenge" | "accepted" | "declined" | "your_move" | "draw_declined" | "rematch" | "message" | "tournament_game" | "study_invite";

/** An opening of the ECCO classification, named in the site's languages. */
export type OpeningView = {
  /** `A00`-`E99`. */
  code: string;
  /** Where a published name exists. */
  english?: string | null;
  /** In simplified characters; "——" parts the opening from its variation. */
  simplified: string;
  traditional: string;
  vietnamese?: string | null;
};

/** Every opening of the classification. */
export type OpeningsAnswer = {
  openings: OpeningView[];
  /** Where the classification comes from. */
  source: string;
};

export type OutcomeView = {
  /** a reason a game ended */
  reason: "checkmate" | "stalemate" | "perpetual_check" | "perpetual_chase" | "repetition" | "no_attackers" | "move_limit" | "resignation" | "time_forfeit" | "agreement";
  /** In words, e.g. "Red wins: checkmate". */
  text: string;
  /** a colour, or null */
  winner?: "red" | "black" | null;
};

/** Whether a time control is a live clock or days per move. */
export type Pace = "correspondence" | "live";

/** How one pairing of a tournament round ended. */
export type PairingResult = "red" | "black" | "draw" | "bye" | "red_by_forfeit" | "black_by_forfeit";

/** A board of a round: a game, a forfeit, or (no `black`) a bye. */
export type PairingView = {
  /** Null for a bye. */
  black?: string | null;
  board: number;
  /** The game, once its round has begun; null for byes and forfeits. */
  game?: string | null;
  red: string;
  /** Null while the game is played (or its round has not begun). */
  result?: PairingResult | null;
};

export type PasswordChange = {
  new: string;
  old: string;
};

/** A page of my buddies by name, those online first within it. */
export type PeopleAnswer = {
  /** The `after` of the next page; null on the last. */
  next?: string | null;
  users: PersonView[];
};

/** Someone on a list or on the site, with what they are doing now. */
export type PersonView = {
  /** On the asking user's buddy list. */
  buddy: boolean;
  /** Games they are playing now (at most 10), to watch. */
  games: GameSummary[];
  name: string;
  /** Seen in the last 5 minutes. */
  online: boolean;
  rating: number;
  seen: number;
};

/** How pieces are drawn. */
export type PieceSet = "traditional" | "simplified" | "beginner";

/** How a player's games with one opening went, on one side. */
export type PlayerOpeningView = {
  /** a colour */
  color: "red" | "black";
  draws: number;
  games: number;
  /** The ECCO code. */
  opening: string;
  wins: number;
};

/** A player's finished games by opening and side, the most played first (at most 20). */
export type PlayerOpeningsAnswer = {
  openings: PlayerOpeningView[];
};

/** A pairing's result for one of its players. */
export type PlayerResult = "win" | "draw" | "loss" | "bye" | "forfeit_win" | "forfeit_loss";

/**
 * A page of my games being played, the most recently changed first, split by
 * whose move it is.
 */
export type PlayingPage = {
  my_turn: GameSummary[];
  /** The `after` of the next page; null on the last. */
  next?: string | null;
  their_turn: GameSummary[];
};

/**
 * A user's preferences. Every field has a default, so a user who never chose
 * has them all.
 */
export type Preferences = {
  animation: boolean;
  /** Which paces' moves wait for Submit. */
  confirm_moves: Confirmations;
  coordinates: Coordinates;
  /** Null: follow the browser's language. */
  language?: Language | null;
  notation: Notation;
  /** Piece size in percent of the standard size, 80-120. */
  piece_size: number;
  pieces: PieceSet;
  /**
   * The game page read out for screen readers: the position in words, a
   * list of the legal moves, and the opponent's moves, checks, clock
   * warnings and the result announced as they happen. Rows stored before
   * it existed read as off.
   */
  screen_reader?: boolean;
  sound: boolean;
  theme: Theme;
};

export type PreferencesAnswer = {
  preferences: Preferences;
};

/** My premove in a game: none, or the move queued (`h2e2`). */
export type PremoveAnswer = {
  premove?: string | null;
};

/** A premove: queued while the opponent is to move, played with their move. */
export type PremoveRequest = {
  /**
   * Two points, the first holding one of your pieces: `h2e2` (cell names on
   * the hex board). Whether it is legal is known after the opponent's move.
   */
  move: string;
  /** The number of moves played now (the opponent is to make move `ply + 1`). */
  ply: number;
};

/**
 * A profile page: the user, their results per rule set, their latest games,
 * and how the one asking regards them.
 */
export type ProfileAnswer = {
  /** How many users this user keeps as buddies. */
  buddies: number;
  /** Whether the user has been seen in the last 5 minutes. */
  online: boolean;
  /** The user's rating in each category they have played rated games in. */
  ratings: RatingView[];
  /** The latest games that are over, newest first (at most 10). */
  recent: GameSummary[];
  /** Finished games per rule set. */
  records: RuleSetRecordView[];
  /**
   * How the logged-in user regards this one: on their buddy list, ignored, or
   * neither (null; always null for visitors).
   */
  relation?: Relation | null;
  user: UserView;
};

/** The whole profile: fields left out are cleared. */
export type ProfileEdit = {
  /** At most 500 characters, kept as typed and shown as text. */
  bio: string;
  /** Up to 8 languages the user reads, 1-30 characters each. */
  languages?: string[];
  /** At most 100 characters. */
  location?: string;
  preferred_clock?: ClockSpec | null;
  /** a rule set, or null */
  preferred_rules?: "itsyourturn" | "asian" | "casual" | "hex" | null;
};

/** One of a player's first attempts. */
export type PuzzleAttemptView = {
  at: number;
  hinted: boolean;
  puzzle: string;
  /** The puzzle's rating now. */
  puzzle_rating: number;
  rated: boolean;
  /** The player's puzzle rating after it, when it was rated. */
  rating?: number | null;
  result: AttemptResult;
  themes: PuzzleTheme[];
};

/** The piece to move next: its cell. */
export type PuzzleHint = {
  cell: string;
};

/** One of the best puzzle solvers. */
export type PuzzleLeader = {
  attempts: number;
  name: string;
  rating: number;
};

/** The best puzzle solvers on a board (at least ten attempts). */
export type PuzzleLeadersView = {
  leaders: PuzzleLeader[];
  /** a board */
  variant: "standard" | "hex";
};

/**
 * The solver's moves in a puzzle so far, the last one new (ICCS on the
 * standard board, cell names on the hex board).
 */
export type PuzzleMoves = {
  moves: string[];
  /** The streak this puzzle is part of, if any. */
  streak?: string | null;
};

/** A player's puzzle rating on one board. */
export type PuzzleRatingView = {
  attempts: number;
  best_streak: number;
  deviation: number;
  provisional: boolean;
  rating: number;
  solved: number;
  /** a board */
  variant: "standard" | "hex";
};

/**
 * Whether the site may find puzzles in my imported games (off until I turn
 * it on). A puzzle shows its position and line only, never the game or
 * whose it was. Turning it off removes the puzzles from my games that nobody
 * has tried, and the others forget which game they came from; each game is
 * searched once, so turning it on again searches only games not searched
 * before.
 */
export type PuzzleSharing = {
  imports: boolean;
};

/** A player's puzzle ratings and attempts, newest first, a page at a time. */
export type PuzzleStandingView = {
  attempts: PuzzleAttemptView[];
  /** The `after` of the next page of attempts, if there is one. */
  next?: string | null;
  ratings: PuzzleRatingView[];
};

/** What the move just sent did. */
export type PuzzleStepView = {
  /** The solver's puzzle rating, when this ended a rated first attempt. */
  rating?: RatingChange | null;
  /** The opponent's answer to a right move that is not the last. */
  reply?: string | null;
  /** The whole line (the opponent's move first) once the attempt has ended. */
  solution?: string[] | null;
  step: StepKind;
  streak?: StreakStepView | null;
  /**
   * Why the attempt this ended changed no rating: only a logged-in player's
   * first attempt at a puzzle the site handed them (the next puzzle, the
   * day's), without a hint, outside a streak, and not tried without logging
   * in from their network address, is rated.
   */
  unrated?: Unrated | null;
};

/** A tactical motif or stage of the game a puzzle shows. */
export type PuzzleTheme = "mate_in1" | "mate_in2" | "mate_in3" | "long_mate" | "capture" | "fork" | "pin" | "discovered_attack" | "cannon_screen" | "horse_leg" | "flying_general" | "defensive_move" | "opening" | "middlegame" | "endgame";

/** A puzzle to solve. */
export type PuzzleView = {
  deviation: number;
  /** The position before the opponent's move that sets the puzzle. */
  fen: string;
  /** The site's game it comes from, if any. */
  game?: string | null;
  id: string;
  /**
   * The game of the Masters collection it comes from, if any. A puzzle
   * from a user's imported game names neither the game nor its owner.
   */
  masters_game?: string | null;
  /** How many moves the solver must find. */
  moves: number;
  /** First attempts so far, and the share of them solved (percent). */
  plays: number;
  /** The puzzle's rating (its difficulty), rounded, and how sure it is. */
  rating: number;
  /** The opponent's move: play it, then find the solver's. */
  setup: string;
  solved_percent?: number | null;
  /** a colour */
  solver: "red" | "black";
  themes: PuzzleTheme[];
  /** a board */
  variant: "standard" | "hex";
};

/** A rating before and after an attempt. */
export type RatingChange = {
  after: number;
  before: number;
};

/**
 * Which rating shows next to my name, and whether my new challenges are rated
 * unless I say otherwise.
 */
export type RatingSettings = {
  rated_by_default: boolean;
  shown: Category;
};

/** A Glicko-2 rating in one category. */
export type RatingView = {
  category: Category;
  /** The rating deviation, rounded: how uncertain the rating is. */
  deviation: number;
  /** Rated games played in the category. */
  games: number;
  /** The deviation is above 110: too few games to trust the rating. */
  provisional: boolean;
  /** Rounded to a whole number. */
  rating: number;
};

/** The formats of record files, as the importer tells them by content. */
export type RecordFormat = "pgn" | "xqf" | "dhtml_xq" | "cbf" | "cbr" | "cbl";

/** A limit on game records (the rules crate's table of record limits). */
export type RecordLimit = "request_bytes" | "file_bytes" | "games_per_file" | "plies_per_line" | "variation_depth" | "nodes_per_tree" | "nodes_per_file";

/**
 * A position of an imported record's tree: the position after its move,
 * with the comment written after that move.
 */
export type RecordNodeView = {
  comment: string;
  /** Its parent's place in `tree` (null at the start). */
  parent?: number | null;
  position: LinePosition;
};

/** Finished games won, lost and drawn. */
export type RecordView = {
  draws: number;
  losses: number;
  wins: number;
};

/**
 * Why a request was refused, with its particulars (`params` on the wire).
 * The English `message` beside it on the wire is this type's `Display`.
 */
export type Refusal =
  /** The body or query string is not what the endpoint takes. */
  | {
      /** The body or query string is not what the endpoint takes. */
      params: {
        detail: string;
      };
      reason: "malformed";
    }
  | {
      params: Record<string, unknown>;
      reason: "nul_character";
    }
  | {
      params: {
        max_kib: number;
      };
      reason: "body_too_large";
    }
  | {
      params: Record<string, unknown>;
      reason: "cross_site";
    }
  | {
      params: Record<string, unknown>;
      reason: "foreign_origin";
    }
  | {
      params: Record<string, unknown>;
      reason: "no_endpoint";
    }
  | {
      params: Record<string, unknown>;
      reason: "log_in_first";
    }
  | {
      params: Record<string, unknown>;
      reason: "session_ended";
    }
  /** At most `allowed` of `act` per `per`; `seconds` until one more is allowed. */
  | {
      /** At most `allowed` of `act` per `per`; `seconds` until one more is allowed. */
      params: {
        act: Act;
        allowed: number;
        per: Window;
        seconds: number;
      };
      reason: "too_often";
    }
  /** Failed log-ins for this user id wait `seconds` before another try. */
  | {
      /** Failed log-ins for this user id wait `seconds` before another try. */
      params: {
        seconds: number;
      };
      reason: "log_in_wait";
    }
  | {
      params: {
        allowed: number;
        open: number;
      };
      reason: "open_challenges";
    }
  | {
      params: {
        allowed: number;
      };
      reason: "computer_games";
    }
  | {
      params: {
        allowed: number;
      };
      reason: "invitations";
    }
  | {
      params: {
        allowed: number;
      };
      reason: "list_full";
    }
  /**
   * The server reads as many records at once as it can (or as many of
   * this client's as it takes): try again in `seconds`.
   */
  | {
      /**
       * The server reads as many records at once as it can (or as many of
       * this client's as it takes): try again in `seconds`.
       */
      params: {
        seconds: number;
      };
      reason: "busy";
    }
  /**
   * The server writes as many exports at once as it can (or as many of
   * this client's as it takes): try again in `seconds`.
   */
  | {
      /**
       * The server writes as many exports at once as it can (or as many of
       * this client's as it takes): try again in `seconds`.
       */
      params: {
        seconds: number;
      };
      reason: "exports_busy";
    }
  | {
      params: {
        max: number;
        min: number;
      };
      reason: "name_shape";
    }
  | {
      params: {
        name: string;
      };
      reason: "name_taken";
    }
  | {
      params: {
        max: number;
        min: number;
      };
      reason: "password_length";
    }
  | {
      params: Record<string, unknown>;
      reason: "old_password_wrong";
    }
  | {
      params: Record<string, unknown>;
      reason: "wrong_credentials";
    }
  | {
      params: {
        name: string;
      };
      reason: "no_user";
    }
  | {
      params: {
        code: string;
      };
      reason: "no_invitation";
    }
  /** `field` is `min` to `max` characters long. */
  | {
      /** `field` is `min` to `max` characters long. */
      params: {
        field: TextField;
        max: number;
        min: number;
      };
      reason: "text_length";
    }
  | {
      params: {
        longest: number;
        most: number;
      };
      reason: "languages";
    }
  | {
      params: {
        max: number;
        min: number;
      };
      reason: "piece_size";
    }
  /** `name` does not accept this from the requester. */
  | {
      /** `name` does not accept this from the requester. */
      params: {
        name: string;
      };
      reason: "ignored";
    }
  /** Neutral words for a challenge between a player and one who ignores them. */
  | {
      /** Neutral words for a challenge between a player and one who ignores them. */
      params: Record<string, unknown>;
      reason: "cannot_challenge";
    }
  | {
      params: Record<string, unknown>;
      reason: "yourself";
    }
  | {
      params: {
        name: string;
      };
      reason: "not_on_list";
    }
  | {
      params: {
        id: string;
      };
      reason: "no_message";
    }
  | {
      params: Record<string, unknown>;
      reason: "players_chat_only";
    }
  | {
      params: Record<string, unknown>;
      reason: "chat_busy";
    }
  | {
      params: Record<string, unknown>;
      reason: "administrators_only";
    }
  | {
      params: {
        id: string;
      };
      reason: "no_news";
    }
  | {
      params: {
        name: string;
      };
      reason: "no_category";
    }
  /** The board `variant` is not played under `rules`. */
  | {
      /** The board `variant` is not played under `rules`. */
      params: {
        /** a rule set */
        rules: "itsyourturn" | "asian" | "casual" | "hex";
        /** a board */
        variant: "standard" | "hex";
      };
      reason: "rules_mismatch";
    }
  | {
      params: {
        max: number;
        min: number;
      };
      reason: "correspondence_hours";
    }
  | {
      params: {
        max_increment_s: number;
        max_s: number;
        min_s: number;
      };
      reason: "live_clock";
    }
  | {
      params: Record<string, unknown>;
      reason: "computer_takes_no_challenges";
    }
  | {
      params: {
        max: number;
        min: number;
      };
      reason: "computer_level";
    }
  | {
      params: Record<string, unknown>;
      reason: "duplicate_challenge";
    }
  | {
      params: {
        id: string;
      };
      reason: "no_challenge";
    }
  | {
      params: Record<string, unknown>;
      reason: "own_challenge";
    }
  | {
      params: Record<string, unknown>;
      reason: "not_your_challenge";
    }
  | {
      params: Record<string, unknown>;
      reason: "challenge_closed";
    }
  | {
      params: {
        id: string;
      };
      reason: "no_game";
    }
  | {
      params: Record<string, unknown>;
      reason: "not_playing";
    }
  | {
      params: Record<string, unknown>;
      reason: "game_over";
    }
  | {
      params: Record<string, unknown>;
      reason: "game_not_over";
    }
  | {
      params: Record<string, unknown>;
      reason: "game_aborted";
    }
  | {
      params: Record<string, unknown>;
      reason: "not_your_turn";
    }
  /** A premove is queued while the opponent is to move; on one's own move, one moves. */
  | {
      /** A premove is queued while the opponent is to move; on one's own move, one moves. */
      params: Record<string, unknown>;
      reason: "premove_on_your_turn";
    }
  /** Correspondence games take no premoves. */
  | {
      /** Correspondence games take no premoves. */
      params: Record<string, unknown>;
      reason: "premove_live_only";
    }
  | {
      params: {
        text: string;
      };
      reason: "bad_premove";
    }
  /** Live games take premoves instead. */
  | {
      /** Live games take premoves instead. */
      params: Record<string, unknown>;
      reason: "conditionals_correspondence_only";
    }
  /** Conditional moves answer the opponent's next move; on one's own move, one moves. */
  | {
      /** Conditional moves answer the opponent's next move; on one's own move, one moves. */
      params: Record<string, unknown>;
      reason: "conditionals_on_your_turn";
    }
  /**
   * A line of conditional moves (counted from 1) is empty or ends with the
   * opponent's move.
   */
  | {
      /**
       * A line of conditional moves (counted from 1) is empty or ends with the
       * opponent's move.
       */
      params: {
        line: number;
      };
      reason: "conditional_ends_with_theirs";
    }
  /** The `number`-th move of a line of conditional moves cannot be played. */
  | {
      /** The `number`-th move of a line of conditional moves cannot be played. */
      params: {
        line: number;
        number: number;
        text: string;
        why: Illegality;
      };
      reason: "conditional_illegal";
    }
  /**
   * Two lines answer the same move of the opponent's (after the moves
   * `after`) differently: each move has one answer.
   */
  | {
      /**
       * Two lines answer the same move of the opponent's (after the moves
       * `after`) differently: each move has one answer.
       */
      params: {
        after: string;
        first: string;
        second: string;
      };
      reason: "conditional_two_answers";
    }
  | {
      params: Record<string, unknown>;
      reason: "not_started";
    }
  /** The game is past the ply the move was made for. */
  | {
      /** The game is past the ply the move was made for. */
      params: Record<string, unknown>;
      reason: "moved_already";
    }
  | {
      params: Record<string, unknown>;
      reason: "game_changed";
    }
  | {
      params: Record<string, unknown>;
      reason: "time_ran_out";
    }
  /** The move `text` (the `number`-th of a line, where one was sent) is not legal. */
  | {
      /** The move `text` (the `number`-th of a line, where one was sent) is not legal. */
      params: {
        number?: number | null;
        text: string;
        why: Illegality;
      };
      reason: "illegal_move";
    }
  | {
      params: Record<string, unknown>;
      reason: "tournament_abort";
    }
  | {
      params: Record<string, unknown>;
      reason: "both_moved";
    }
  | {
      params: Record<string, unknown>;
      reason: "draw_offered";
    }
  | {
      params: Record<string, unknown>;
      reason: "no_draw_offer";
    }
  | {
      params: Record<string, unknown>;
      reason: "opponent_has_time";
    }
  | {
      params: {
        id: string;
      };
      reason: "no_puzzle";
    }
  /** Every puzzle that fits has been tried, or none has been found yet. */
  | {
      /** Every puzzle that fits has been tried, or none has been found yet. */
      params: Record<string, unknown>;
      reason: "no_puzzle_left";
    }
  /** More moves were sent than the puzzle's line has for the solver. */
  | {
      /** More moves were sent than the puzzle's line has for the solver. */
      params: {
        moves: number;
      };
      reason: "puzzle_line";
    }
  | {
      params: {
        id: string;
      };
      reason: "no_streak";
    }
  /** The streak ended (a puzzle failed or the time ran out), or this is not its puzzle now. */
  | {
      /** The streak ended (a puzzle failed or the time ran out), or this is not its puzzle now. */
      params: Record<string, unknown>;
      reason: "streak_over";
    }
  /** A running streak stands on this puzzle: it is answered through that streak alone. */
  | {
      /** A running streak stands on this puzzle: it is answered through that streak alone. */
      params: Record<string, unknown>;
      reason: "puzzle_in_streak";
    }
  | {
      params: {
        max: number;
      };
      reason: "line_length";
    }
  | {
      params: {
        detail: string;
      };
      reason: "bad_position";
    }
  | {
      params: {
        max_games: number;
        max_kib: number;
      };
      reason: "import_too_large";
    }
  | {
      params: {
        allowed: number;
        stored: number;
      };
      reason: "imports_full";
    }
  | {
      params: {
        format: string;
      };
      reason: "no_records";
    }
  | {
      params: {
        max: number;
        min: number;
      };
      reason: "depth";
    }
  | {
      params: {
        max_ms: number;
        min_ms: number;
      };
      reason: "thinking_time";
    }
  | {
      params: {
        max: number;
        min: number;
      };
      reason: "analysis_lines";
    }
  | {
      params: Record<string, unknown>;
      reason: "on_ladder";
    }
  | {
      params: Record<string, unknown>;
      reason: "join_ladder_first";
    }
  | {
      params: {
        name: string;
      };
      reason: "not_on_ladder";
    }
  | {
      params: Record<string, unknown>;
      reason: "ladder_upward";
    }
  | {
      params: {
        reach: number;
      };
      reason: "ladder_reach";
    }
  | {
      params: {
        allowed: number;
        name: string;
      };
      reason: "ladder_busy";
    }
  | {
      params: {
        pace: Pace;
      };
      reason: "pace_mismatch";
    }
  | {
      params: {
        max: number;
        min: number;
      };
      reason: "player_count";
    }
  | {
      params: Record<string, unknown>;
      reason: "round_robin_rounds";
    }
  | {
      params: Record<string, unknown>;
      reason: "swiss_rounds";
    }
  | {
      params: {
        days: number;
      };
      reason: "tournament_start";
    }
  | {
      params: {
        id: string;
      };
      reason: "no_tournament";
    }
  | {
      params: Record<string, unknown>;
      reason: "entries_closed";
    }
  | {
      params: Record<string, unknown>;
      reason: "tournament_full";
    }
  | {
      params: Record<string, unknown>;
      reason: "signed_up";
    }
  | {
      params: Record<string, unknown>;
      reason: "not_entered";
    }
  | {
      params: Record<string, unknown>;
      reason: "tournament_starting";
    }
  | {
      params: Record<string, unknown>;
      reason: "withdrawn";
    }
  | {
      params: Record<string, unknown>;
      reason: "tournament_moved_on";
    }
  | {
      params: Record<string, unknown>;
      reason: "tournament_over";
    }
  | {
      params: {
        id: string;
      };
      reason: "no_study";
    }
  | {
      params: {
        id: string;
      };
      reason: "no_chapter";
    }
  | {
      params: {
        id: number;
      };
      reason: "no_node";
    }
  /** The study is at `version` now, not at the version the edit was made on. */
  | {
      /** The study is at `version` now, not at the version the edit was made on. */
      params: {
        version: number;
      };
      reason: "study_stale";
    }
  | {
      params: Record<string, unknown>;
      reason: "study_read_only";
    }
  | {
      params: Record<string, unknown>;
      reason: "study_owner_only";
    }
  | {
      params: {
        allowed: number;
      };
      reason: "studies_owned";
    }
  | {
      params: {
        allowed: number;
      };
      reason: "study_chapters";
    }
  | {
      params: {
        allowed: number;
      };
      reason: "study_nodes";
    }
  | {
      params: {
        allowed: number;
      };
      reason: "study_members";
    }
  | {
      params: {
        allowed: number;
      };
      reason: "study_shapes";
    }
  | {
      params: Record<string, unknown>;
      reason: "last_chapter";
    }
  | {
      params: {
        detail: string;
      };
      reason: "bad_pgn";
    }
  /**
   * XQF was asked for where it cannot hold the export: a file of several
   * games, or a game on the hex board.
   */
  | {
      /**
       * XQF was asked for where it cannot hold the export: a file of several
       * games, or a game on the hex board.
       */
      params: Record<string, unknown>;
      reason: "xqf_one_game";
    }
  /** A record passes one of the record limits. */
  | {
      /** A record passes one of the record limits. */
      params: {
        allowed: number;
        limit: RecordLimit;
      };
      reason: "record_limit";
    }
  | {
      params: Record<string, unknown>;
      reason: "stopping";
    }
  | {
      params: Record<string, unknown>;
      reason: "database_away";
    }
  /** A fault of the server's, logged there; nothing was changed. */
  | {
      /** A fault of the server's, logged there; nothing was changed. */
      params: Record<string, unknown>;
      reason: "internal";
    };

/** A game of an uploaded file that was not kept, and why. */
export type RefusedGameView = {
  black: string;
  /** The moves before the refused one were kept, as a game in `kept`. */
  cut: boolean;
  /** The reason in English. */
  detail: string;
  move_number?: string | null;
  /** Its place in the file, from 1. */
  number: number;
  /**
   * The move refused: its number (ply, from 1), its number as the record
   * writes it (`2.` for Red's second move, `2...` for Black's) and its text.
   */
  ply?: number | null;
  problem: ImportProblem;
  red: string;
  text?: string | null;
  /** Why the move is illegal, where the rules said. */
  why?: Illegality | null;
};

/** How a user regards another: kept on their buddy list, or ignored. */
export type Relation = "buddy" | "ignore";

/** A game's review, or null if none has been asked for. */
export type ReviewAnswer = {
  review?: ReviewView | null;
};

/** Where a game review stands. */
export type ReviewStatus = "pending" | "done";

/**
 * A game's review: every position evaluated once at a fixed node budget, and
 * each move judged by the expected score it gave up against the engine's move.
 */
export type ReviewView = {
  black: ClassCounts;
  /** Positions evaluated so far, of `total` (one more than the moves). */
  done: number;
  game: string;
  /** The moves whose positions before and after are both evaluated. */
  moves: ReviewedMove[];
  /** Nodes searched per position. */
  nodes: number;
  positions: ReviewedPosition[];
  red: ClassCounts;
  requested_by: string;
  status: ReviewStatus;
  thresholds: Thresholds;
  total: number;
};

/** A move of a reviewed game, judged. */
export type ReviewedMove = {
  /** The engine's move in its place. */
  best?: MoveNamesView | null;
  class: MoveClass;
  /** a colour */
  color: "red" | "black";
  /**
   * Percentage points of expected score (Win%, from the engine's
   * centipawns) its mover gave up against the engine's move searched to the
   * same depth (0 for the engine's own move).
   */
  loss: number;
  played: MoveNamesView;
  /** Its number in the game, from 1: it leads from position `ply - 1` to `ply`. */
  ply: number;
};

/** One evaluated position of a review. */
export type ReviewedPosition = {
  /** The engine's move here; null when the game is over here. */
  best?: MoveNamesView | null;
  /** How deep the search went. */
  depth: number;
  /** The position after this many moves (0 is the start). */
  ply: number;
  /** The same from Red's view. */
  red: ScoreView;
  /**
   * Red's view in centipawns clamped to ±1000 (a mate or a won game is the
   * limit): what the evaluation graph draws.
   */
  red_cp: number;
  /** From the side to move's view. */
  score: ScoreView;
};

/** A round's pairings. */
export type RoundView = {
  pairings: PairingView[];
  round: number;
  /** Players with no board this round: a round-robin's rest, or withdrawn. */
  sitting_out: string[];
};

export type RuleSetRecordView = {
  draws: number;
  losses: number;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  wins: number;
};

/** A place on a ladder. */
export type RungView = {
  joined: number;
  name: string;
  /** 1 is the top. */
  position: number;
};

/** An evaluation from one side's view. */
export type ScoreView =
  /** Centipawns: positive when this side is better (a soldier is worth about 100). */
  | {
      kind: "cp";
      value: number;
    }
  /** A forced mate in `value` moves: positive when this side gives it, negative when it suffers it. */
  | {
      kind: "mate";
      value: number;
    }
  /** The game is over here and this side has won. */
  | {
      kind: "won";
    }
  /** The game is over here and this side has lost (checkmated, stalemated or by a rule). */
  | {
      kind: "lost";
    }
  /** The game is over here, drawn. */
  | {
      kind: "drawn";
    };

/** A page of search results, by name. */
export type SearchPage = {
  /** The `after` of the next page; null on the last. */
  next?: string | null;
  users: UserView[];
};

/**
 * A new session: the user, and the token a client without cookies sends as
 * `Authorization: Bearer <token>`.
 */
export type SessionAnswer = {
  token: string;
  user: UserView;
};

/** The side a challenge's creator asks to play. */
export type SideChoice = "red" | "black" | "random";

/**
 * How fast a game is played: a live clock by its base time and 40
 * increments (bullet under 3 minutes, blitz under 10, rapid under 30,
 * classical beyond), or correspondence; `other` for imported games.
 */
export type Speed = "bullet" | "blitz" | "rapid" | "classical" | "correspondence" | "other";

/** A line of the standings, with the player's results round by round. */
export type StandingView = {
  name: string;
  /** Wins 1, draws 0.5, a bye or a forfeit won 1. */
  points: number;
  /** 1 is first. */
  rank: number;
  /** Every pairing of the player so far, by round. */
  results: CrossCell[];
  seed: number;
  /** The tournament's tie-break (`tiebreak`), in points. */
  tiebreak: number;
  wins: number;
  withdrawn_round?: number | null;
};

/** What a move made in a puzzle did. */
export type StepKind = "right" | "solved" | "wrong";

/** Where a streak stands after one of its puzzles. */
export type StreakStepView = {
  /** The next puzzle, after a solved one. */
  next?: PuzzleView | null;
  over: boolean;
  solved: number;
};

/** A timed streak just started. */
export type StreakView = {
  /** When it ends (milliseconds since the epoch). */
  ends: number;
  id: string;
  puzzle: PuzzleView;
};

/** A page of studies, newest first. */
export type StudiesPage = {
  /** The `after` of the next page; null on the last. */
  next?: string | null;
  studies: StudySummary[];
};

export type StudyAnswer = {
  study: StudyView;
};

/** The owner adds a member by user name, or changes a member's role. */
export type StudyInvite = {
  name: string;
  role: StudyRole;
  version: number;
};

/** A member of a study besides its owner. */
export type StudyMember = {
  name: string;
  role: StudyRole;
};

/**
 * A move after a node of a chapter: the main line if the node had none
 * after it, else a variation (a move that is there already is not added again).
 */
export type StudyMove = {
  /** In any notation the board reads (`h2e2`, `C2=5`, `炮二平五`). */
  move: string;
  node: number;
  version: number;
};

/** A position of a chapter's tree. */
export type StudyNode = {
  arrows: Arrow[];
  /** The moves that may follow: the main line first, then the variations. */
  children: number[];
  comment: string;
  /** The position here. */
  fen: string;
  /** 0 is the chapter's start; ids are never reused. */
  id: number;
  marks: Mark[];
  /** The move that led here (null at the start). */
  move?: MoveNamesView | null;
  parent?: number | null;
  /** Moves from the chapter's start. */
  ply: number;
};

/** What a member of a study may do. */
export type StudyRole = "view" | "edit";

/** The owner renames a study or makes it public or private. */
export type StudySettings = {
  title?: string | null;
  /** The study's version this edit is made on. */
  version: number;
  visibility?: Visibility | null;
};

/** A study in a list. */
export type StudySummary = {
  /** Milliseconds since the Unix epoch. */
  created: number;
  id: string;
  owner: string;
  title: string;
  updated: number;
  /** Grows by one with every change; an edit names the version it was made on. */
  version: number;
  visibility: Visibility;
};

/**
 * The study's version an edit is made on: the query of a deletion, or the
 * whole body of an edit that needs nothing more.
 */
export type StudyVersion = {
  version: number;
};

/** A study: its summary, members and chapters. */
export type StudyView = StudySummary & {
  chapters: ChapterView[];
  members: StudyMember[];
};

/** A move. */
export type Submit = {
  /** ICCS (`h2e2`), WXF (`C2=5`) or Chinese (`炮二平五`). */
  move: string;
  /** The number of moves already played: the move made is number `ply + 1`. */
  ply: number;
};

/** The encodings of text record files. */
export type TextEncoding = "utf-8" | "gb18030" | "big5" | "utf-16le" | "utf-16be";

/** A text a person writes, whose length is bounded. */
export type TextField = "title" | "news" | "bio" | "location" | "message" | "chat_line" | "tournament_name" | "search" | "study_title" | "chapter_title" | "comment";

/** The board's colours. */
export type Theme = "wood" | "paper" | "contrast";

/**
 * The thresholds the moves were judged by: the least loss of expected score,
 * in percentage points, of an inaccuracy, a mistake and a blunder.
 */
export type Thresholds = {
  blunder: number;
  inaccuracy: number;
  mistake: number;
};

/** What breaks a tie on points. */
export type TieBreak = "sonneborn_berger" | "buchholz";

export type TournamentAnswer = {
  tournament: TournamentView;
};

/** How a tournament pairs its players. */
export type TournamentFormat = "round_robin" | "swiss";

/** A tournament game's tournament and round. */
export type TournamentGameRef = {
  id: string;
  round: number;
};

/** Where a tournament stands. */
export type TournamentStatus = "signup" | "running" | "finished" | "cancelled";

/** A tournament as lists show it. */
export type TournamentSummary = {
  category: Category;
  clock: ClockSpec;
  created: number;
  creator: string;
  /** When it finished or was cancelled. */
  finished?: number | null;
  format: TournamentFormat;
  id: string;
  max_players: number;
  min_players: number;
  name: string;
  /** Signed up (withdrawn players included). */
  players: number;
  /** The round being played (0 before the start; the last once finished). */
  round: number;
  /** A Swiss's rounds as planned; a round-robin's from its start (0 before). */
  rounds: number;
  /** a rule set */
  rules: "itsyourturn" | "asian" | "casual" | "hex";
  started?: number | null;
  /** When it starts; null: as soon as it is full. */
  starts?: number | null;
  status: TournamentStatus;
  /** What breaks ties on points. */
  tiebreak: TieBreak;
};

/** A tournament in full: entrants, rounds and standings (with the crosstable). */
export type TournamentView = TournamentSummary & {
  /** By seed once started, else in the order they signed up. */
  entrants: EntrantView[];
  /**
   * The rounds drawn so far, first first (a round-robin's whole schedule
   * from the start; a Swiss's as each round is paired).
   */
  schedule: RoundView[];
  /**
   * Best first, by points, then the tie-break, then wins, then seed; empty
   * before the start. Kept once the tournament is over.
   */
  standings: StandingView[];
};

/** A page of tournaments, newest first. */
export type TournamentsPage = {
  /** The `after` of the next page; null on the last. */
  next?: string | null;
  tournaments: TournamentSummary[];
};

/** Why an ended attempt changed no rating. */
export type Unrated = "visitor" | "streak" | "hinted" | "opened" | "seen" | "repeat";

export type UserAnswer = {
  user: UserView;
};

/** A player as everyone may see them. */
export type UserView = {
  /** An administrator of the site (writes news). */
  admin: boolean;
  /** As the user typed it; show it as text. */
  bio: string;
  /** The level this player plays at, when the player is the computer. */
  computer?: number | null;
  /** When the account was made. */
  joined: number;
  /** Languages the user reads. */
  languages: string[];
  location: string;
  name: string;
  /** The time control the user prefers, if they said. */
  preferred_clock?: ClockSpec | null;
  /** a rule set, or null */
  preferred_rules?: "itsyourturn" | "asian" | "casual" | "hex" | null;
  /** The rating of the category the user shows (`shown_category`), rounded. */
  rating: number;
  record: RecordView;
  /** When the user was last seen on the site (to the minute). */
  seen: number;
  shown_category: Category;
};

/** A page of players by name, and who is here now. */
export type UsersPage = {
  /** Pass as `after` for the next page; null on the last. */
  next?: string | null;
  /**
   * Which of this page's players were seen in the last 5 minutes (who is
   * here, all of them, is `GET /users/online`).
   */
  online: string[];
  users: UserView[];
};

/** Who sees a study. */
export type Visibility = "public" | "private";

/** The window of time a limit counts in. */
export type Window = "minute" | "quarter_hour" | "hour" | "day";
