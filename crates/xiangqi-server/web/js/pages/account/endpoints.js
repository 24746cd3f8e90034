// Every call the account pages make to the server: invitations (mine, and the
// one a link opens), registering through one, and sharing puzzles from my
// imports.

import * as api from "../../api.js";

/** @typedef {import("../../models.js").Invitation} Invitation */
/** @typedef {import("../../models.js").InvitationPreview} InvitationPreview */
/** @typedef {import("../../api-types.js").PuzzleSharing} PuzzleSharing */

/** @param {string | null} after @returns {Promise<{ invitations: Invitation[], next?: string | null }>} */
export const invitations = (after) => api.call("GET", `/me/invitations${after ? `?after=${encodeURIComponent(after)}` : ""}`);

/**
 * A new invitation link, with a challenge waiting for whoever registers through it.
 * @param {{ rules?: string, color?: string, clock: unknown } | null} challenge
 * @returns {Promise<unknown>}
 */
export const invite = (challenge) => api.call("POST", "/me/invitations", { challenge });

/** The invitation a link names. @param {string} code @returns {Promise<InvitationPreview>} */
export const invitation = (code) => api.call("GET", `/invitations/${encodeURIComponent(code)}`);

/** A new user id made through an invitation. @param {{ name?: string, password?: string, invite: string }} body */
export const register = (body) => api.user("POST", "/users", body);

/** @returns {Promise<PuzzleSharing>} */
export const puzzleSharing = () => api.call("GET", "/me/puzzle-sharing");

/** @param {boolean} on @returns {Promise<PuzzleSharing>} */
export const sharePuzzles = (on) => api.call("PUT", "/me/puzzle-sharing", { imports: on });
