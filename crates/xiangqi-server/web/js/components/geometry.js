// What the board component needs to know about a board's shape. One module per
// board implements it (board-standard.js, board-hex.js); board.js draws pieces,
// marks and handles input the same way on both.

/**
 * Which coordinates a board shows: none, ICCS (files a-i, ranks), or WXF (files
 * 1-9 from each side's right, at that side's end of the board).
 * @typedef {"off" | "iccs" | "wxf"} Coordinates
 */

/**
 * @typedef {object} Geometry
 * @property {"standard" | "hex"} name
 * @property {string} startFen
 * @property {import("../fen.js").FenRows} rows  the FEN layout
 * @property {string[]} cells
 * @property {number} width       of the SVG viewBox
 * @property {number} height
 * @property {number} hit         how far from a cell's centre a pointer still picks it
 * @property {(cell: string, flipped: boolean) => [number, number]} center
 * @property {(layer: SVGGElement, flipped: boolean, coords: Coordinates) => void} drawGround  lines or cells, river, palaces, coordinates
 * @property {(layer: SVGGElement, cell: string, cls: string, flipped: boolean) => void} outline  a highlight of one cell
 */

export {};
