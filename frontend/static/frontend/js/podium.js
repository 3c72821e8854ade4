// The top three of a board at a glance (the home page, the leaderboards page): its first page as
// anyone may read it (GET /api/leaderboards/{board}?limit=3), so a daily's board shows here only
// what it shows on its own page before the day is over. Each row tells its moves and time, which
// set tied scores apart; my own row is marked.
import { get } from "./api.js";
import { goalOf, boardVariant } from "./variants.js";
import { gettext, ngettext, fmt } from "./i18n.js";
import { el, duration } from "./ui.js";

const TOP = 3;

function progressOf(entry, russian) {
  if (entry.won) return gettext("won");
  const n = russian ? entry.cards_home : entry.sequences;
  return russian
    ? fmt(ngettext("%(n)s card home", "%(n)s cards home", n ?? 0), { n: n ?? 0 })
    : fmt(ngettext("%(n)s sequence", "%(n)s sequences", n ?? 0), { n: n ?? 0 });
}

function row(entry, { russian, mine }) {
  return el("li", { class: mine ? "me" : null },
    el("span", { class: "podium-rank" }, `${entry.rank}.`),
    el("a", { class: "podium-player", href: `/players/${encodeURIComponent(entry.player)}/` }, entry.player),
    el("span", { class: "podium-score" },
      fmt(ngettext("%(score)s point", "%(score)s points", entry.score), { score: entry.score })),
    el("span", { class: "podium-facts" }, [
      progressOf(entry, russian),
      fmt(ngettext("%(n)s move", "%(n)s moves", entry.moves), { n: entry.moves }),
      duration(entry.elapsed_ms),
    ].join(" · ")));
}

// A list that fills itself with the board's top three (or says there is nobody yet).
export function topThree(board) {
  const list = el("ol", { class: "podium", "aria-label": gettext("Top three"), "data-podium": board },
    el("li", { class: "muted" }, gettext("Loading…")));
  get(`/api/leaderboards/${encodeURIComponent(board)}?limit=${TOP}`).then((doc) => {
    const entries = (doc.entries || []).slice(0, TOP);
    if (!entries.length) {
      list.replaceChildren(el("li", { class: "muted" }, gettext("No verified results yet. Be the first!")));
      return;
    }
    const russian = goalOf(boardVariant(board)) === "cards_home";
    const me = doc.me ? doc.me.player : null;
    list.replaceChildren(...entries.map((entry) => row(entry, { russian, mine: entry.player === me })));
  }).catch((error) => {
    list.replaceChildren(el("li", { class: "muted" }, error.message || gettext("Something went wrong.")));
  });
  return list;
}
