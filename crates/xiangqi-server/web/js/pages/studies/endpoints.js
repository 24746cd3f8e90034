// Every call the study pages make to the server. An edit names the version of
// the study it was made on (the server refuses a stale one), so each edit here
// is a request waiting for that version.

import * as api from "../../api.js";

/** @typedef {import("../../api-types.js").StudyAnswer} StudyAnswer */
/** @typedef {import("../../api-types.js").StudiesPage} StudiesPage */
/** @typedef {import("../../api-types.js").NewStudy} NewStudy */
/** @typedef {import("../../api-types.js").NewChapter} NewChapter */
/** @typedef {import("../../api-types.js").NodeAnnotation} NodeAnnotation */
/** @typedef {import("../../api-types.js").StudyInvite} StudyInvite */
/** @typedef {import("../../api-types.js").StudySettings} StudySettings */
/** @typedef {import("../../api-types.js").StudyRole} StudyRole */

/** An edit: the request, once told the version it is made on. @typedef {(version: number) => Promise<StudyAnswer>} Edit */

/** @param {string} id */
const studyPath = (id) => `/studies/${encodeURIComponent(id)}`;

/** @param {string} id @param {string} chapter */
const chapterPath = (id, chapter) => `${studyPath(id)}/chapters/${encodeURIComponent(chapter)}`;

/**
 * A page of a shelf of studies (`public` or `mine`).
 * @param {string} shelf
 * @param {string | null} after
 * @returns {Promise<StudiesPage>}
 */
export function shelfPage(shelf, after) {
  const query = new URLSearchParams({ shelf });
  if (after) query.set("after", after);
  return api.call("GET", `/studies?${query}`);
}

/** @param {NewStudy} body @returns {Promise<StudyAnswer>} */
export const createStudy = (body) => api.call("POST", "/studies", body);

/**
 * A new study from a record file's bytes.
 * @param {string} title
 * @param {Blob} file
 * @returns {Promise<StudyAnswer>}
 */
export const importStudy = (title, file) => api.sendBytes(`/studies/import?title=${encodeURIComponent(title)}`, file);

/** @param {string} id @returns {Promise<StudyAnswer>} */
export const readStudy = (id) => api.call("GET", studyPath(id));

/** The API path of a study's PGN, for its download link. @param {string} id */
export const exportPath = (id) => `${studyPath(id)}/pgn`;

/** @param {string} id @param {number} version @returns {Promise<null>} */
export const deleteStudy = (id, version) => api.call("DELETE", `${studyPath(id)}?version=${version}`);

/**
 * A move played after a node of a chapter.
 * @param {string} id @param {string} chapter @param {number} node @param {string} move
 * @returns {Edit}
 */
export const playMove = (id, chapter, node, move) => (version) =>
  api.call("POST", `${chapterPath(id, chapter)}/moves`, { version, node, move });

/**
 * A node's comment, arrows or marks.
 * @param {string} id @param {string} chapter @param {number} node @param {Omit<NodeAnnotation, "version">} change
 * @returns {Edit}
 */
export const annotate = (id, chapter, node, change) => (version) =>
  api.call("POST", `${chapterPath(id, chapter)}/nodes/${node}`, { version, ...change });

/** A node's line made the main line. @param {string} id @param {string} chapter @param {number} node @returns {Edit} */
export const promote = (id, chapter, node) => (version) =>
  api.call("POST", `${chapterPath(id, chapter)}/nodes/${node}/main`, { version });

/** @param {string} id @param {Omit<NewChapter, "version">} body @returns {Edit} */
export const addChapter = (id, body) => (version) => api.call("POST", `${studyPath(id)}/chapters`, { version, ...body });

/** @param {string} id @param {string} chapter @param {string} title @returns {Edit} */
export const renameChapter = (id, chapter, title) => (version) => api.call("POST", chapterPath(id, chapter), { version, title });

/** @param {string} id @param {string} chapter @param {number} place @returns {Edit} */
export const placeChapter = (id, chapter, place) => (version) =>
  api.call("POST", `${chapterPath(id, chapter)}/place`, { version, place });

/** @param {string} id @param {string} chapter @returns {Edit} */
export const deleteChapter = (id, chapter) => (version) => api.call("DELETE", `${chapterPath(id, chapter)}?version=${version}`);

/** @param {string} id @param {string} name @param {StudyRole} role @returns {Edit} */
export const invite = (id, name, role) => (version) => api.call("POST", `${studyPath(id)}/members`, { version, name, role });

/** @param {string} id @param {string} name @returns {Edit} */
export const removeMember = (id, name) => (version) =>
  api.call("DELETE", `${studyPath(id)}/members/${encodeURIComponent(name)}?version=${version}`);

/** @param {string} id @param {Omit<StudySettings, "version">} change @returns {Edit} */
export const settings = (id, change) => (version) => api.call("POST", `${studyPath(id)}/settings`, { version, ...change });
