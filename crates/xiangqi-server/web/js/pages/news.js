// Site news, newest first, on its own page for everyone (the main screen shows
// the latest few).

import { newsCard } from "../components/news-card.js";
import { page } from "../components/layout.js";
import { t } from "../i18n.js";

/** Every item, newest first. @param {HTMLElement} view */
export async function newsPage(view) {
  page(view, t("news.title"), newsCard(100));
}
