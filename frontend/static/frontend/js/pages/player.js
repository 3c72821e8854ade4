// A player's page: statistics per variant, a chart of results over time, recent games.
import { get } from "../api.js";
import { scoreChart } from "../chart.js";
import { goalOf, variantLabel, boardLabel, gameName } from "../variants.js";
import { ratingText } from "../ratings.js";
import { gettext, fmt, language } from "../i18n.js";
import { el, duration, dateTime, shortDate, watchLink } from "../ui.js";

const root = document.querySelector("[data-player-page]");
const name = root.dataset.name;
let cursor = null;
const percent = new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(language(), { maximumFractionDigits: 1 });

// A share drawn as a bar beside its number: it reads at a glance, and compares across the cards.
function share(value, label) {
  return [percent.format(value), el("meter", { min: 0, max: 1, value, "aria-label": label })];
}

function statCard(s) {
  const dl = el("dl", {});
  const add = (term, value) => dl.append(el("dt", {}, term), el("dd", {}, value ?? "—"));
  add(gettext("Games"), s.games);
  add(gettext("Wins"), s.wins);
  // The share of games won, from the server's two counts, in the page's language ("50 %").
  add(gettext("Win rate"), s.games ? share(s.wins / s.games, gettext("Win rate")) : null);
  add(gettext("Clean wins"), s.clean_wins); // won without an undo or a hint
  add(gettext("Average moves to win"), s.average_win_moves === null ? null : decimal.format(s.average_win_moves));
  add(gettext("Average time to win"), s.average_win_ms === null ? null : duration(s.average_win_ms));
  add(gettext("Winning streak"), s.win_streak);
  add(gettext("Best winning streak"), s.best_win_streak);
  if (goalOf(s.variant) === "cards_home") {
    // Russian Solitaire's score can be farmed with take-backs: its best game is cards home, then moves.
    add(gettext("Best game"), s.best_cards_home === null ? null
      : fmt(gettext("%(cards)s cards home in %(moves)s moves"), { cards: s.best_cards_home, moves: s.best_moves }));
  } else {
    add(gettext("Best score"), s.best_score);
  }
  add(gettext("Daily streak"), s.daily_streak);
  add(gettext("Best daily streak"), s.best_daily_streak);
  return el("article", { class: "stat-card" }, el("h3", {}, variantLabel(s.variant)), dl);
}

function resultRow(r) {
  const code = r.code;
  const name = r.board ? boardLabel(r.board) : code || "—";
  const board = r.board ? el("a", { href: `/leaderboards/${encodeURIComponent(r.board)}/` }, name) : name;
  return el("tr", {},
    el("td", {}, dateTime(r.verified_at || r.finished_at)),
    el("td", {}, board, r.won ? " ✓" : ""),
    el("td", { class: "num" }, r.score),
    el("td", { class: "num" }, r.moves),
    el("td", { class: "num" }, duration(r.elapsed_ms)),
    el("td", {}, watchLink(r.id)));
}

function drawSeries(series) {
  const pick = root.querySelector("[data-series-pick]");
  const chart = root.querySelector("[data-chart]");
  const variants = Object.keys(series || {});
  pick.replaceChildren(...variants.map((v) => el("option", { value: v }, variantLabel(v))));
  pick.hidden = !variants.length;
  const show = () => chart.replaceChildren(scoreChart((series || {})[pick.value] || []));
  pick.onchange = show;
  show();
}

// Each game's race rating with its uncertainty, and its history as the results' chart is drawn:
// a point a rated race (green: placed first).
function drawRatings(ratings) {
  const section = root.querySelector("[data-ratings-section]");
  section.hidden = !ratings.length;
  if (!ratings.length) return;
  root.querySelector("[data-ratings]").replaceChildren(...ratings.map((r) => {
    const dl = el("dl", {});
    dl.append(el("dt", {}, gettext("Rating")), el("dd", {}, ratingText(r)));
    dl.append(el("dt", {}, gettext("Rated races")), el("dd", {}, r.races));
    if (r.provisional) dl.append(el("dt", {}, gettext("Status")), el("dd", {}, gettext("Provisional")));
    return el("article", { class: "stat-card" }, el("h3", {}, gameName(r.game)), dl);
  }));
  const pick = root.querySelector("[data-rating-pick]");
  const chart = root.querySelector("[data-rating-chart]");
  pick.replaceChildren(...ratings.map((r) => el("option", { value: r.game }, gameName(r.game))));
  const show = () => chart.replaceChildren(scoreChart((ratings.find((r) => r.game === pick.value) || {}).history || [], {
    value: (p) => p.rating, when: (p) => p.at, won: (p) => p.place === 1, fromZero: false,
    title: gettext("Rating after each rated race, oldest first"),
  }));
  pick.onchange = show;
  show();
}

async function load(more = false) {
  const doc = await get(`/api/players/${encodeURIComponent(name)}${more && cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`);
  cursor = doc.next_cursor || null;
  const results = root.querySelector("[data-results]");
  if (!more) {
    root.querySelector("[data-joined]").textContent = doc.player && doc.player.joined
      ? `${gettext("Joined")} ${shortDate(doc.player.joined)}` : "";
    const stats = root.querySelector("[data-stats]");
    stats.replaceChildren(...(doc.stats || []).map(statCard));
    if (!(doc.stats || []).length) stats.replaceChildren(el("p", { class: "muted" }, gettext("No games yet")));
    drawSeries(doc.series);
    drawRatings(doc.ratings || []);
    results.replaceChildren();
  }
  results.append(...(doc.results || []).map(resultRow));
  root.querySelector("[data-more]").hidden = !cursor;
}

load().catch((error) => {
  root.querySelector("[data-stats]").replaceChildren(el("p", {}, error.status === 404 ? gettext("There is no such player.") : error.message));
});
root.querySelector("[data-more]").addEventListener("click", () => load(true));
