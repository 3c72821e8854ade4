// A game's rating board: the rated players best first, the provisional ones apart, each page from
// the server's cursor. The numbers are the server's: rating ± uncertainty, races played.
import { get } from "../api.js";
import { gameName } from "../variants.js";
import { gettext } from "../i18n.js";
import { el } from "../ui.js";
import { ratingText } from "../ratings.js";

const root = document.querySelector("[data-ratings]");
const game = root.dataset.game;
for (const tab of root.querySelectorAll("[data-game-tab]")) tab.textContent = gameName(tab.dataset.gameTab);
document.title = `${gettext("Ratings")}: ${gameName(game)}`;

function row(e) {
  return el("tr", { "data-provisional": e.provisional ? "true" : null },
    el("td", { class: "num" }, e.rank),
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(e.player)}/` }, e.player)),
    el("td", { class: "num" }, ratingText(e)),
    el("td", { class: "num" }, e.races));
}

function board(section) {
  const group = section.dataset.group;
  const body = section.querySelector("[data-entries]");
  const more = section.querySelector("[data-more]");
  let cursor = null;
  async function load(next = false) {
    const query = new URLSearchParams({ group });
    if (next && cursor) query.set("cursor", cursor);
    try {
      const doc = await get(`/api/ratings/${game}?${query}`);
      if (!next) body.replaceChildren();
      body.append(...doc.entries.map(row));
      if (!body.children.length) body.append(el("tr", {}, el("td", { class: "muted", colspan: 4 }, gettext("Nobody yet"))));
      cursor = doc.next_cursor;
      more.hidden = !cursor;
    } catch (error) {
      body.replaceChildren(el("tr", {}, el("td", { colspan: 4 }, error.message)));
    }
  }
  more.addEventListener("click", () => load(true));
  load();
}

root.querySelectorAll("[data-group]").forEach(board);
