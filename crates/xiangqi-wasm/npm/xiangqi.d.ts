// Types of the xiangqi WebAssembly package.

/** A board: `standard` (9x10) or `hex` (Xiang Hex). */
export type Variant = "standard" | "hex";
/** A rule set: `asian`, `casual` and `itsyourturn` on the standard board, `hex` on the hex board. */
export type RuleSet = "asian" | "casual" | "itsyourturn" | "hex";
export type Color = "red" | "black";

/** A board, its rules and a position; each optional (the standard board, Asian rules, the start position). */
export interface BoardSpec {
  variant?: Variant;
  rules?: RuleSet;
  fen?: string;
}

/** A start and moves played from it, each in ICCS (`h2e2`), WXF (`C2=5`) or Chinese (`炮二平五`). */
export interface LineSpec extends BoardSpec {
  moves?: string[];
}

export interface MoveNames {
  iccs: string;
  wxf: string;
  chinese: string;
}

export interface Outcome {
  /** Null for a draw. */
  winner: Color | null;
  /** `checkmate`, `stalemate`, `perpetual_check`, ... */
  reason: string;
  /** In English, e.g. "Red wins by checkmate". */
  text: string;
}

export interface LinePosition {
  /** The move that led here; null for the first position. */
  played: MoveNames | null;
  fen: string;
  turn: Color;
  check: boolean;
  /** ICCS, sorted; empty once the game is over. */
  legal: string[];
  outcome: Outcome | null;
}

export interface LineAnswer {
  variant: Variant;
  rules: RuleSet;
  /** The start, then one per move. */
  positions: LinePosition[];
}

export type Score = { kind: "cp"; value: number } | { kind: "mate"; value: number };

export interface SearchSpec extends LineSpec {
  depth?: number;
  nodes?: number;
  /** Milliseconds. */
  time?: number;
  /** Lines of distinct first moves (MultiPV), 1 to 5. */
  lines?: number;
}

/** One depth of one line, while the engine thinks. */
export interface SearchInfo {
  depth: number;
  seldepth: number;
  /** Which line, from 1. */
  line: number;
  /** From the side to move's view. */
  score: Score;
  nodes: number;
  nps: number;
  /** Milliseconds. */
  time: number;
  pv: MoveNames[];
}

export interface SearchAnswer {
  /** ICCS; null when the side to move has no move. */
  best: string | null;
  lines: { depth: number; score: Score; pv: MoveNames[] }[];
  nodes: number;
  time: number;
}

export interface BenchAnswer {
  depth: number;
  nodes: number;
  per_position: number[];
  nps: number;
  kernel: string;
}

export type PgnEntry = { tags: [string, string][]; start_fen: string; moves: MoveNames[] } | { error: string };

export interface PgnWriteSpec extends LineSpec {
  tags?: [string, string][];
  notation?: "iccs" | "wxf" | "chinese";
}

/** A refusal: `reason` is stable (`illegal_move`, `bad_position`, `rules_mismatch`, ...). */
export class XiangqiError extends Error {
  reason: string;
}

export interface Xiangqi {
  /** Any request, as the module takes it (`{ op: "line", ... }`). */
  ask(request: object, info?: (info: SearchInfo) => void): any;
  line(spec?: LineSpec): LineAnswer;
  legalMoves(spec?: LineSpec): string[];
  perft(spec: BoardSpec & { depth: number }): number;
  /** Blocks while the engine thinks: in a page, use `startWorker`. */
  search(spec: SearchSpec, info?: (info: SearchInfo) => void): SearchAnswer;
  bench(depth?: number): BenchAnswer;
  readPgn(text: string): PgnEntry[];
  writePgn(spec: PgnWriteSpec): string;
  newGame(): object;
}

/** Loads the module (by default the file beside this package's `xiangqi.js`). */
export function load(source?: URL | string | Response | BufferSource): Promise<Xiangqi>;

export interface EngineWorker {
  ask(request: object, info?: (info: SearchInfo) => void): Promise<any>;
  /** Ends the search under way at once; what waited is refused with reason `stopped`. */
  stop(): void;
  close(): void;
}

/** The module in a Web Worker, so that a page never freezes while the engine thinks. */
export function startWorker(workerUrl?: URL | string, wasmUrl?: URL | string): EngineWorker;
