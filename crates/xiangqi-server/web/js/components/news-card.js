// Site news as a card that fills itself, newest first: on the main screen after
// logging in and on the news page. Administrators see a form to post news and a
// button to delete an item.

import * as api from "../api.js";
import { button, card } from "./layout.js";
import { form } from "./form.js";
import { h } from "../dom.js";
import { date, t } from "../i18n.js";
import { attempt } from "../notify.js";
import { currentUser } from "../state.js";

/** @typedef {import("../models.js").NewsItem} NewsItem */

/**
 * The latest news, or none when the server has none to give.
 * @param {number} limit
 * @returns {Promise<NewsItem[]>}
 */
async function latest(limit) {
  /** @type {{ news: NewsItem[] } | null} */
  const r = await api.call("GET", `/news?limit=${limit}`).catch(() => null);
  return r?.news ?? [];
}

/**
 * One item; an administrator's has a delete button.
 * @param {NewsItem} item
 * @param {() => void} changed
 */
function newsItem(item, changed) {
  const admin = currentUser()?.admin === true;
  return h("article", { class: "news-item", "data-news": item.id },
    h("h3", {}, item.title),
    h("p", { class: "muted small" }, t("news.byline", { author: item.author, date: date(item.posted) })),
    h("p", { class: "body" }, item.body),
    admin ? button(t("news.delete"), () => attempt(async () => {
      await api.call("DELETE", `/news/${encodeURIComponent(item.id)}`);
      changed();
    }), { class: "danger small", "data-action": "delete-news" }) : null);
}

/**
 * The news as a card that fills itself (the main screen's): the latest few, a
 * link to all, and for an administrator the form to post.
 * @param {number} [limit]
 */
export function newsCard(limit = 5) {
  const list = h("div", { class: "news-list" }, h("p", { class: "muted" }, t("app.loading")));
  const box = card(t("news.title"), list);
  box.id = "news";
  async function fill() {
    const items = await latest(limit);
    list.replaceChildren(...(items.length ? items.map((i) => newsItem(i, fill)) : [h("p", { class: "muted" }, t("news.none"))]),
      h("p", { class: "small" }, h("a", { href: "#/news" }, t("news.all"))));
  }
  if (currentUser()?.admin) {
    const post = form([
      { name: "title", label: t("news.postTitle"), attrs: { required: true, maxlength: "200" } },
      { name: "body", label: t("news.postBody"), type: "textarea", attrs: { required: true } },
    ], t("news.post"), async (d) => {
      await api.call("POST", "/news", { title: d["title"], body: d["body"] });
      await fill();
    }, { reset: true });
    post.classList.add("news-form");
    box.append(h("h3", {}, t("news.write")), post);
  }
  fill();
  return box;
}
