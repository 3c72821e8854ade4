// A variant's all-time board: best verified results on any of its deals, most wins, longest daily streaks.
import { get } from "../api.js";
import { catalogue, goalOf, variantLabel } from "../variants.js";
import { gettext } from "../i18n.js";
import { el, duration, watchLink } from "../ui.js";

const root = document.querySelector("[data-all-time]");
const variant = root.dataset.variant;
const pick = root.querySelector("[data-variant-pick]");
const head = root.querySelector("[data-head]");
const body = root.querySelector("[data-entries]");
const russian = goalOf(variant) === "cards_home";
let by = new URLSearchParams(location.search).get("by") || "best";

const title = `${gettext("All-time")}: ${variantLabel(variant)}`;
root.querySelector("[data-title]").textContent = title;
document.title = title;
pick.append(...catalogue.variants.map((v) => el("option", { value: v.id }, v.name)));
pick.value = variant;
pick.addEventListener("change", () => location.assign(`/leaderboards/all-time/${pick.value}/?by=${by}`));

const EXPLAIN = () => ({
  best: gettext("Each player's best verified result on any deal of this variant, ranked like a leaderboard."),
  wins: gettext("Verified wins in this variant."),
  streak: gettext("The longest run of days with a finished ranked daily of this variant."),
});

const th = (text, cls) => el("th", { scope: "col", class: cls }, text);
const td = (text, cls) => el("td", { class: cls }, text ?? "—");

function columns() {
  if (by === "best") {
    return [th("#", "num"), th(gettext("Player")), th(russian ? gettext("Cards home") : gettext("Sequences"), "num"),
      th(gettext("Score"), "num"), th(gettext("Moves"), "num"), th(gettext("Time"), "num"),
      th(gettext("Undos"), "num wide"), th(el("span", { class: "long-label" }, gettext("Replay")))];
  }
  if (by === "wins") {
    return [th("#", "num"), th(gettext("Player")), th(gettext("Wins"), "num"), th(gettext("Clean wins"), "num"),
      th(gettext("Games"), "num")];
  }
  return [th("#", "num"), th(gettext("Player")), th(gettext("Best daily streak"), "num"), th(gettext("Daily streak"), "num")];
}

function row(e) {
  const who = el("td", {}, el("a", { href: `/players/${encodeURIComponent(e.player)}/` }, e.player), e.won ? " ✓" : "");
  if (by === "best") {
    return el("tr", {}, td(e.rank, "num"), who, td(russian ? e.cards_home : e.sequences, "num"), td(e.score, "num"),
      td(e.moves, "num"), td(duration(e.elapsed_ms), "num"), td(e.undos, "num wide"),
      el("td", {}, watchLink(e.result)));
  }
  if (by === "wins") {
    return el("tr", {}, td(e.rank, "num"), who, td(e.wins, "num"), td(e.clean_wins, "num"), td(e.games, "num"));
  }
  return el("tr", {}, td(e.rank, "num"), who, td(e.best_daily_streak, "num"), td(e.daily_streak, "num"));
}

async function load() {
  for (const tab of root.querySelectorAll("[data-by]")) tab.setAttribute("aria-pressed", String(tab.dataset.by === by));
  root.querySelector("[data-explain]").textContent = EXPLAIN()[by];
  head.replaceChildren(el("tr", {}, columns()));
  try {
    const doc = await get(`/api/leaderboards/all-time/${encodeURIComponent(variant)}?by=${by}`);
    body.replaceChildren(...(doc.entries.length ? doc.entries.map(row)
      : [el("tr", {}, el("td", { colspan: 8, class: "muted" }, gettext("No verified results yet. Be the first!")))]));
  } catch (error) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: 8 }, error.message)));
  }
}

for (const tab of root.querySelectorAll("[data-by]")) {
  tab.addEventListener("click", () => {
    by = tab.dataset.by;
    history.replaceState(null, "", `?by=${by}`);
    load();
  });
}
load();
