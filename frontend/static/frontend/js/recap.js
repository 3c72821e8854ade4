// A daily attempt's recap (GET /api/daily/recap), on the play page's result dialog and on the home
// page: the result, the ranks now on the daily board and its clean twin, the par (when out), the
// countdown to the next dailies, the streak calendar of the variant, and a spoiler-free Share.
import { get } from "./api.js";
import { variantLabel } from "./variants.js";
import { gettext, ngettext, fmt, language } from "./i18n.js";
import { el, duration, copyText } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";

export function fetchRecap(variant, date) {
  const query = new URLSearchParams({ variant });
  if (date) query.set("date", date);
  return get(`/api/daily/recap?${query}`);
}

// Fill `box` with the recap of my attempt at the daily of `variant` (and `date`); an answer without
// one (404: no finished ranked attempt) leaves it empty and hidden. Resolves to the recap or null.
export async function showRecap(box, { variant, date = null, countdown = true, facts = true } = {}) {
  let recap = null;
  try {
    recap = await fetchRecap(variant, date);
  } catch {
    box.hidden = true;
    return null;
  }
  box.replaceChildren(renderRecap(recap, { countdown, facts }));
  box.hidden = false;
  return recap;
}

// `facts: false` leaves out the result and the ranks, for a place that shows them already (the
// play page's result dialog); `countdown: false` the countdown, for a page that shows one of its own.
export function renderRecap(recap, { countdown = true, facts = true } = {}) {
  return el("section", { class: "recap", "data-recap-of": recap.variant },
    facts ? el("p", { class: "recap-headline" }, recapHeadline(recap)) : null,
    !facts ? null : el("ul", { class: "recap-ranks" },
      el("li", { "data-recap-rank": "" }, recap.rank
        ? fmt(gettext("Rank %(rank)s on the daily's leaderboard"), { rank: recap.rank })
        : gettext("Not on the daily's leaderboard")),
      el("li", { "data-recap-clean": "" }, recap.clean
        ? fmt(gettext("A clean game: rank %(rank)s on the clean board"), { rank: recap.clean_rank ?? "—" })
        : fmt(ngettext("Not clean: %(n)s undo", "Not clean: %(n)s undos", recap.undos), { n: recap.undos }))),
    facts ? fairPlayNote(recap.fair_play) : null,
    el("p", { class: "recap-par", "data-recap-par": "" }, parText(recap)),
    countdown ? nextDailies(recap.next_dailies_at) : null,
    streakFigure(recap),
    shareBox(recap));
}

// Where a daily result stands (docs/dailies.md, "Fair play"): provisional until the day closes, then
// final; under review while held off the boards; approved, or voided with the reason. An element,
// with a link to the fair-play page when it was held; null for a result that is no daily's.
export function fairPlayNote(fairPlay) {
  if (!fairPlay) return null;
  const link = () => el("a", { href: "/fair-play/" }, gettext("About fair play"));
  switch (fairPlay.status) {
    case "provisional":
      return el("p", { class: "fair-play-note", "data-fair-play": "provisional" },
        gettext("Provisional: the result becomes final when the day closes at 01:00 UTC."));
    case "under_review":
      return el("p", { class: "fair-play-note held", "data-fair-play": "under_review" },
        gettext("Under review: this result is held off the leaderboards until a member of staff has looked at it."),
        " ", link());
    case "approved":
      return el("p", { class: "fair-play-note", "data-fair-play": "approved" },
        gettext("Approved after review: the result is on the leaderboards."));
    case "voided":
      return el("p", { class: "fair-play-note held", "data-fair-play": "voided" },
        fmt(gettext("Voided after review: %(reason)s"), { reason: fairPlay.reason || "" }), " ", link());
    default:
      return null;  // final: nothing more to say
  }
}

// "Won in 99 moves, 3:12"
export function recapHeadline(recap) {
  const numbers = { moves: recap.moves, time: duration(recap.elapsed_ms) };
  return recap.won
    ? fmt(ngettext("Won in %(moves)s move, %(time)s", "Won in %(moves)s moves, %(time)s", recap.moves), numbers)
    : fmt(ngettext("Not won: %(moves)s move, %(time)s", "Not won: %(moves)s moves, %(time)s", recap.moves), numbers);
}

function parText(recap) {
  if (!recap.published) {
    const at = new Date(recap.publishes_at);
    const time = `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
    return fmt(gettext("The par is revealed at %(time)s UTC."), { time });
  }
  return recap.par === null ? gettext("This daily has no par: the solver did not certify it.")
    : fmt(ngettext("Par: %(par)s move", "Par: %(par)s moves", recap.par), { par: recap.par });
}

// ---------------------------------------------------------------- the countdown to 00:00 UTC

const countdowns = new Set();
let ticking = null;

function clock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = String(Math.floor((total % 3600) / 60)).padStart(2, "0");
  const s = String(total % 60).padStart(2, "0");
  return `${h}:${m}:${s}`;
}

function paint(node) {
  const left = Number(node.dataset.at) - Date.now();
  node.textContent = left > 0 ? fmt(gettext("Next dailies in %(time)s"), { time: clock(left) })
    : gettext("The next dailies are out: open the home page to play them.");
}

// A countdown taken off the page (a recap drawn again) is dropped; one not yet put on it is kept.
function tick() {
  for (const node of countdowns) {
    if (node.isConnected) node.dataset.shown = "1";
    else if (node.dataset.shown) { countdowns.delete(node); continue; }
    paint(node);
  }
  if (!countdowns.size) { clearInterval(ticking); ticking = null; }
}

// "Next dailies in 3:12:45", counting down each second (the server says when: 00:00 UTC).
export function nextDailies(iso) {
  const node = el("p", { class: "recap-next", "data-next-dailies": "", role: "timer", "aria-live": "off" });
  node.dataset.at = String(Date.parse(iso));
  countdowns.add(node);
  paint(node);
  if (!ticking) ticking = setInterval(tick, 1000);
  return node;
}

// ---------------------------------------------------------------- the streak calendar

const CELL = 20;
const GAP = 4;
const HEAD = 16;
const STATUS = {
  won: () => gettext("won"),
  played: () => gettext("played, not won"),
  missed: () => gettext("missed"),
  open: () => gettext("today, still to play"),
};

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

const utcDay = (iso) => new Date(`${iso}T00:00:00Z`);

function streakFigure(recap) {
  const { streak } = recap;
  const counts = { won: 0, played: 0, missed: 0 };
  for (const day of streak.days) if (day.status in counts) counts[day.status] += 1;
  const label = fmt(gettext("The last weeks of this daily: %(won)s won, %(played)s played without a win, %(missed)s missed."), counts);
  return el("figure", { class: "streak" },
    el("figcaption", {},
      fmt(ngettext("Streak: %(n)s day", "Streak: %(n)s days", streak.current), { n: streak.current }),
      " · ",
      fmt(ngettext("best %(n)s day", "best %(n)s days", streak.best), { n: streak.best })),
    calendar(streak, label),
    el("ul", { class: "streak-legend", "aria-hidden": "true" },
      ...["won", "played", "missed"].map((status) => el("li", {}, swatch(status), STATUS[status]()))));
}

const DAY_MS = 86400000;

// Whole weeks, Monday first, from the week of my first day shown to the week of today.
function calendar(streak, label) {
  const byDate = new Map(streak.days.map((d) => [d.date, d.status]));
  const from = utcDay(streak.from);
  const firstShown = streak.days.length ? utcDay(streak.days[0].date) : from;
  const first = new Date(from.getTime() + Math.floor((firstShown - from) / DAY_MS / 7) * 7 * DAY_MS);
  const last = streak.days.length ? utcDay(streak.days[streak.days.length - 1].date) : first;
  const weeks = Math.floor((last - first) / DAY_MS / 7) + 1;
  const width = 7 * CELL + 6 * GAP;
  const height = HEAD + weeks * CELL + (weeks - 1) * GAP;
  // A margin of 3 around the cells, for today's ring.
  const drawing = svg("svg", {
    viewBox: `-3 0 ${width + 6} ${height + 3}`, width: width + 6, height: height + 3, role: "img", "aria-label": label, class: "streak-calendar",
  });
  const weekday = new Intl.DateTimeFormat(language(), { weekday: "narrow", timeZone: "UTC" });
  const long = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeZone: "UTC" });
  for (let col = 0; col < 7; col++) {
    const day = new Date(first.getTime() + col * DAY_MS);
    drawing.append(svg("text", { x: col * (CELL + GAP) + CELL / 2, y: 11, class: "streak-weekday", "text-anchor": "middle" }, weekday.format(day)));
  }
  for (let n = 0; n < weeks * 7; n++) {
    const day = new Date(first.getTime() + n * DAY_MS);
    const iso = day.toISOString().slice(0, 10);
    const status = byDate.get(iso);
    if (!status) continue; // before my first day, or after today
    const x = (n % 7) * (CELL + GAP);
    const y = HEAD + Math.floor(n / 7) * (CELL + GAP);
    drawing.append(cell(status, x, y, `${long.format(day)}: ${STATUS[status]()}`));
    if (day.getTime() === last.getTime()) { // today: ringed
      drawing.append(svg("rect", { x: x - 2, y: y - 2, width: CELL + 4, height: CELL + 4, rx: 6, class: "streak-today" }));
    }
  }
  return drawing;
}

// A day's mark: won a filled green square with a tick, played an amber one with a bar, missed an
// empty outline, today still to play a dashed one (told apart by shape, not by colour alone).
function cell(status, x, y, title) {
  const group = svg("g", { class: `streak-day ${status}`, "data-status": status, transform: `translate(${x} ${y})` },
    svg("title", {}, title),
    svg("rect", { width: CELL, height: CELL, rx: 4 }));
  if (status === "won") group.append(svg("path", { d: "M5 10.5l3.5 3.5L15 7", class: "mark" }));
  if (status === "played") group.append(svg("path", { d: "M5.5 10h9", class: "mark" }));
  return group;
}

function swatch(status) {
  const drawing = svg("svg", { viewBox: `0 0 ${CELL} ${CELL}`, width: 14, height: 14, class: "streak-swatch" });
  drawing.append(cell(status, 0, 0, STATUS[status]()));
  return drawing;
}

// ---------------------------------------------------------------- sharing

// The text a player shares: no card, no code, no par before publication; only what the board shows.
export function shareText(recap, origin = location.origin) {
  const date = new Intl.DateTimeFormat(language(), { dateStyle: "long", timeZone: "UTC" }).format(utcDay(recap.date));
  const lines = [
    fmt(gettext("Solitaire League daily: %(variant)s, %(date)s"), { variant: variantLabel(recap.variant), date }),
    recapHeadline(recap),
  ];
  const rank = recap.rank ? fmt(gettext("Rank %(rank)s"), { rank: recap.rank }) : "";
  const clean = recap.clean
    ? (recap.clean_rank ? fmt(gettext("clean, rank %(rank)s on the clean board"), { rank: recap.clean_rank }) : gettext("clean"))
    : gettext("not clean");
  lines.push([rank, clean].filter(Boolean).join(" · "));
  lines.push(`${origin}/leaderboards/${encodeURIComponent(recap.board)}/`);
  return lines.join("\n");
}

function shareBox(recap) {
  const status = el("p", { class: "share-status", role: "status" });
  const fallback = el("textarea", { class: "share-text", readonly: true, rows: 4, hidden: true, "aria-label": gettext("Text to share") });
  const button = el("button", {
    type: "button",
    class: "button",
    "data-share": "",
    onclick: () => copyText(shareText(recap), {
      status,
      fallback,
      copied: gettext("Copied: paste it wherever you like."),
      byHand: gettext("Copy this text to share it:"),
    }),
  }, gettext("Share"));
  return el("div", { class: "recap-share" }, button, status, fallback);
}
