// What the board component needs to know about a board's shape. One module per
// board implements it (board-standard.js, board-hex.js); board.js draws pieces,
// marks and handles input the same way on both.

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
 * @property {(layer: SVGGElement, flipped: boolean) => void} drawGround  lines or cells, river, palaces, coordinates
 * @property {(layer: SVGGElement, cell: string, cls: string, flipped: boolean) => void} outline  a highlight of one cell
 */

export {};
