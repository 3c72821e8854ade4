// One leaderboard, live: a snapshot over the socket, then each change as it happens.
import { get } from "../api.js";
import { LiveSocket, statusText } from "../socket.js";
import { boardLabel, boardVariant, cleanTwin, goalOf } from "../variants.js";
import { gettext, ngettext, fmt } from "../i18n.js";
import { el, duration, watchLink } from "../ui.js";

const root = document.querySelector("[data-leaderboard]");
const board = root.dataset.board;
const russian = goalOf(boardVariant(board)) === "cards_home";
const body = root.querySelector("[data-entries]");
let entries = [];
let me = null;
let total = 0;
let cursor = null;

root.querySelector("[data-board-title]").textContent = boardLabel(board);
document.title = boardLabel(board);

// The switch between the board and its clean twin (only games without an undo or a hint).
const twin = cleanTwin(board);
for (const link of root.querySelectorAll("[data-switch]")) {
  const target = link.dataset.switch === "clean" ? twin.clean : twin.all;
  link.href = `/leaderboards/${encodeURIComponent(target)}/`;
  if (target === (twin.isClean ? twin.clean : twin.all)) link.setAttribute("aria-current", "page");
}
root.querySelector("[data-switch-help]").textContent = twin.isClean
  ? gettext("Only games played without an undo or a hint: an undo is a free look at the cards, a hint the engine's judgement.")
  : gettext("Every verified game, undos and hints included.");
root.querySelector("[data-progress-head]").textContent = russian ? gettext("Cards home") : gettext("Sequences");

function row(entry, flash) {
  const progress = russian ? entry.cards_home : entry.sequences;
  const mine = me && me.player === entry.player;
  return el("tr", { class: [mine ? "me" : "", flash ? "flash" : ""].join(" ").trim() || null },
    el("td", { class: "num" }, entry.rank),
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(entry.player)}/` }, entry.player), entry.won ? " ✓" : ""),
    el("td", { class: "num" }, progress ?? "—"),
    el("td", { class: "num" }, entry.score),
    el("td", { class: "num" }, entry.moves),
    el("td", { class: "num" }, duration(entry.elapsed_ms)),
    el("td", { class: "num wide" }, entry.undos ?? "—"),
    el("td", {}, entry.result ? watchLink(entry.result) : ""));
}

function draw(flashPlayer = null) {
  root.querySelector("[data-total]").textContent = fmt(ngettext("%(n)s player", "%(n)s players", total), { n: total });
  root.querySelector("[data-me]").textContent = me ? fmt(gettext("Your rank: %(rank)s"), { rank: me.rank }) : "";
  if (!entries.length) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: 8, class: "muted" }, gettext("No verified results yet. Be the first!"))));
  } else {
    body.replaceChildren(...entries.map((e) => row(e, e.player === flashPlayer)));
  }
  root.querySelector("[data-more]").hidden = !cursor;
}

function snapshot(doc) {
  entries = doc.entries || [];
  me = doc.me || null;
  total = doc.total ?? entries.length;
  cursor = doc.next_cursor || null;
  draw();
}

// A change carries one entry: put it in its place, and everyone at or below its rank moves down one.
function change(entry) {
  const old = entries.findIndex((e) => e.player === entry.player);
  const oldRank = old >= 0 ? entries[old].rank : Infinity;
  if (old >= 0) entries.splice(old, 1);
  else total += 1;
  for (const e of entries) if (e.rank >= entry.rank && e.rank < oldRank) e.rank += 1;
  entries.push(entry);
  entries.sort((a, b) => a.rank - b.rank);
  if (me && me.player === entry.player) me = entry;
  draw(entry.player);
}

const connection = root.querySelector("[data-connection]");
new LiveSocket(`/ws/leaderboards/${encodeURIComponent(board)}/`, {
  onMessage(message) {
    if (message.type === "snapshot") snapshot(message);
    else if (message.type === "change" && message.entry) change(message.entry);
  },
  onStatus(status) {
    connection.dataset.state = status;
    connection.textContent = statusText(status);
  },
});

get(`/api/leaderboards/${encodeURIComponent(board)}`).then((doc) => { if (!entries.length) snapshot(doc); }).catch((error) => {
  body.replaceChildren(el("tr", {}, el("td", { colspan: 8 }, error.message)));
});

root.querySelector("[data-more]").addEventListener("click", async () => {
  const doc = await get(`/api/leaderboards/${encodeURIComponent(board)}?cursor=${encodeURIComponent(cursor)}`);
  const known = new Set(entries.map((e) => e.player));
  entries.push(...(doc.entries || []).filter((e) => !known.has(e.player)));
  cursor = doc.next_cursor || null;
  draw();
});

// A daily's par, beside the players' results once the day is over (01:00 UTC the day after its
// date). Before that the page asks nothing: it says when, and asks once the moment has come.
function publishesAt(dailyBoard) {
  const [year, month, day] = dailyBoard.split(":")[1].split("-").map(Number);
  return Date.UTC(year, month - 1, day + 1, 1);
}

function parText(doc) {
  if (doc.par !== null) {
    return [
      fmt(gettext("Par: %(par)s moves"), { par: doc.par }),
      fmt(gettext("%(beat)s beat par, %(matched)s matched it"), { beat: doc.beat, matched: doc.matched }),
    ].join(" · ");
  }
  if (doc.candidates.length) {
    return gettext("Not certified winnable: the solver found no win on the deals it tried within its time.");
  }
  return gettext("Not certified: this daily was chosen before the solver checked dailies.");
}

async function showPar() {
  const box = root.querySelector("[data-par]");
  const text = box.querySelector("[data-par-text]");
  box.hidden = false;
  const wait = publishesAt(board) - Date.now();
  if (wait > 0) {
    text.textContent = gettext("The par is revealed at 01:00 UTC, when the day is over.");
    box.classList.add("muted");
    if (wait < 2 ** 31) setTimeout(showPar, wait + 1000);
    return;
  }
  try {
    const doc = await get(`/api/leaderboards/${encodeURIComponent(board)}/par`);
    box.classList.remove("muted");
    text.textContent = parText(doc);
    if (doc.par !== null) {
      const watch = box.querySelector("[data-par-watch]");
      watch.href = `/replay/par/${encodeURIComponent(doc.board)}/`;
      watch.hidden = false;
    }
  } catch (error) {
    text.textContent = error.message;
    box.classList.add("muted");
  }
}
if (board.toLowerCase().startsWith("daily:")) showPar();
