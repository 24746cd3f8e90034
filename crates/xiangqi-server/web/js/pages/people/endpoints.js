// Every call the people pages make to the server: who is online, the search,
// my buddies and ignored, a profile and its openings, my profile, password and
// rating settings, and the leaders.

import * as api from "../../api.js";

/** @typedef {import("../../models.js").Person} Person */
/** @typedef {import("../../models.js").UserView} UserView */
/** @typedef {import("../../models.js").LeadersPage} LeadersPage */
/** @typedef {import("../../models.js").RatingSettings} RatingSettings */
/** @typedef {import("../../models.js").Profile} Profile */
/** @typedef {import("../../api-types.js").PlayerOpeningsAnswer} PlayerOpeningsAnswer */
/** @typedef {import("../../api-types.js").ProfileEdit} ProfileEdit */
/** @typedef {import("../../api-types.js").PasswordChange} PasswordChange */

/** `?after=` for a page after the first. @param {string | null} after */
const afterQuery = (after) => (after ? `?after=${encodeURIComponent(after)}` : "");

/** @param {string | null} after @returns {Promise<{ users: Person[], next?: string | null }>} */
export const online = (after) => api.call("GET", `/users/online${afterQuery(after)}`);

/** @param {URLSearchParams} q @returns {Promise<{ users: UserView[], next?: string | null }>} */
export const search = (q) => api.call("GET", `/users/search?${q}`);

/** @param {string | null} after @returns {Promise<{ users: Person[], next?: string | null }>} */
export const buddies = (after) => api.call("GET", `/me/buddies${afterQuery(after)}`);

/** @param {string | null} after @returns {Promise<{ users: string[], next?: string | null }>} */
export const ignored = (after) => api.call("GET", `/me/ignored${afterQuery(after)}`);

/** @param {string} name @returns {Promise<Profile>} */
export const profile = (name) => api.call("GET", api.userPath(name));

/** The API path of a player's games as one PGN, for its download link. @param {string} name */
export const archivePath = (name) => `${api.userPath(name)}/games.pgn`;

/** @param {string} name @returns {Promise<PlayerOpeningsAnswer>} */
export const openings = (name) => api.call("GET", `${api.userPath(name)}/openings`);

/** Me as the session has me. */
export const session = () => api.user("GET", "/session");

/** @param {ProfileEdit} edit */
export const editProfile = (edit) => api.user("PUT", "/me/profile", edit);

/** @param {PasswordChange | Record<string, string>} change @returns {Promise<unknown>} */
export const changePassword = (change) => api.call("POST", "/me/password", change);

/** @returns {Promise<RatingSettings>} */
export const ratingSettings = () => api.call("GET", "/me/rating-settings");

/** @param {RatingSettings} settings @returns {Promise<RatingSettings>} */
export const saveRatingSettings = (settings) => api.call("PUT", "/me/rating-settings", settings);

/**
 * A page of a rating category's leaders.
 * @param {string} category
 * @param {number} limit
 * @param {string | null} after
 * @returns {Promise<LeadersPage>}
 */
export const leaders = (category, limit, after) =>
  api.call("GET", `/ratings/${category}/leaders?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ""}`);
