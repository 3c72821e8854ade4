// Past days' daily boards, newest first, by variant: who ranked and who leads, each a link to its board.
import { get } from "../api.js";
import { catalogue, variantLabel, boardLabel } from "../variants.js";
import { gettext, ngettext, fmt } from "../i18n.js";
import { el, dayName } from "../ui.js";

const root = document.querySelector("[data-archive]");
const form = root.querySelector("[data-archive-form]");
const days = root.querySelector("[data-days]");
const more = root.querySelector("[data-more]");
const query = new URLSearchParams(location.search);
let next = null;

form.variant.append(...catalogue.daily.map((v) => el("option", { value: v }, variantLabel(v))));
form.variant.value = query.get("variant") || "";
form.before.value = query.get("before") || "";

function leaderText(board) {
  const leader = board.leader;
  if (!leader) return gettext("Nobody ranked");
  const progress = leader.cards_home ?? leader.sequences;
  return fmt(gettext("led by %(player)s: %(score)s points, %(progress)s"), {
    player: leader.player,
    score: leader.score,
    progress: leader.cards_home !== undefined
      ? fmt(ngettext("%(n)s card home", "%(n)s cards home", progress), { n: progress })
      : fmt(ngettext("%(n)s sequence", "%(n)s sequences", progress), { n: progress }),
  });
}

function day(doc) {
  return el("section", { class: "panel section" },
    el("h2", {}, dayName(doc.date, { weekday: true })),
    el("ul", { class: "day-boards" }, doc.boards.map((board) => el("li", {},
      el("a", { href: `/leaderboards/${encodeURIComponent(board.board)}/`, "aria-label": boardLabel(board.board) },
        variantLabel(board.variant)),
      el("span", { class: "muted" }, fmt(ngettext("%(n)s player", "%(n)s players", board.players), { n: board.players })),
      el("span", {}, leaderText(board))))));
}

async function load(append) {
  const params = new URLSearchParams();
  if (form.variant.value) params.set("variant", form.variant.value);
  const before = append ? next : form.before.value;
  if (before) params.set("before", before);
  try {
    const doc = await get(`/api/leaderboards/archive?${params}`);
    next = doc.next_before;
    const shown = doc.days.map(day);
    if (append) days.append(...shown);
    else days.replaceChildren(...(shown.length ? shown : [el("p", { class: "muted" }, gettext("No past days yet."))]));
    more.hidden = !next;
  } catch (error) {
    days.replaceChildren(el("p", { class: "form-error" }, error.message));
  }
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  const params = new URLSearchParams();
  if (form.variant.value) params.set("variant", form.variant.value);
  if (form.before.value) params.set("before", form.before.value);
  history.replaceState(null, "", `?${params}`);
  load(false);
});
more.addEventListener("click", () => load(true));
load(false);
