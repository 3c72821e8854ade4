// The play page: draws the server's session document, turns gestures into action tokens,
// sends them over the play socket (HTTP when the socket is down) and shows refusals in words.
import { get, post } from "../api.js";
import { LiveSocket, statusText } from "../socket.js";
import { Board } from "../board.js";
import { Moves, moveToken } from "../moves.js";
import { Pointer } from "../drag.js";
import { Keyboard } from "../keyboard.js";
import { animateFrom } from "../animate.js";
import { InfoBar } from "../infobar.js";
import { loadOptions, saveOptions } from "../options.js";
import { Picker } from "../picker.js";
import { variantOf, variantLabel } from "../variants.js";
import { gettext, fmt } from "../i18n.js";
import { duration, toast } from "../ui.js";

const root = document.querySelector("[data-play]");
const id = root.dataset.session;
const $ = (selector) => root.querySelector(selector);
const board = new Board($("[data-table]"));
const info = new InfoBar($("[data-infobar]"));
const ruleBox = $("[data-rule]");
const options = loadOptions();

let doc = null;
let moves = new Moves(null);
let pending = null;
let tapTimer = null;
let resultShown = false;

const variant = () => (doc && (doc.variant || variantOf(doc.code || doc.view.code))) || "";
const russian = () => Boolean(doc && doc.view.foundations);

// ---------------------------------------------------------------- drawing

function show(next, { token = null } = {}) {
  const before = doc ? board.snapshot() : null;
  const focusKey = focusedKey();
  doc = next;
  moves = new Moves(doc.finished ? null : doc);
  board.render(doc.view, { variant: variant(), sequences: variant().startsWith("SD1") ? 4 : 8 });
  if (before) animateFrom(before, board, { fromStock: token === "D" });
  info.update(doc, variantLabel(variant()));
  $("[data-undo]").disabled = !moves.undo;
  $("[data-finish]").hidden = doc.finished;
  const restart = $("[data-restart]");
  restart.disabled = !canRestart();
  restart.title = restart.disabled ? gettext("The daily's code is hidden until the day is over") : "";
  root.classList.toggle("russian", russian());
  root.classList.toggle("finished", doc.finished);
  restoreFocus(focusKey);
  if (doc.finished && doc.result && !resultShown) showResult();
}

function focusedKey() {
  const node = document.activeElement;
  if (!node || !root.contains(node) || !node.dataset) return null;
  if (node.dataset.foundation) return { suit: node.dataset.foundation };
  if (node.dataset.col) return { col: node.dataset.col, idx: node.dataset.idx };
  return null;
}

function restoreFocus(key) {
  if (!key) return;
  let node = null;
  if (key.suit) node = root.querySelector(`[data-foundation="${key.suit}"]`);
  else {
    node = root.querySelector(`.column[data-col="${key.col}"] [data-idx="${key.idx}"].up`)
      || [...root.querySelectorAll(`.column[data-col="${key.col}"] .up, .column[data-col="${key.col}"] .slot`)].pop();
  }
  if (node) node.focus({ preventScroll: true });
}

function showRule(message) {
  if (!options.interactiveRules) return;
  ruleBox.textContent = message;
  ruleBox.hidden = false;
  clearTimeout(showRule.timer);
  showRule.timer = setTimeout(() => { ruleBox.hidden = true; }, 7000);
}

// ---------------------------------------------------------------- sending

function act(token) {
  if (!doc || doc.finished || pending) return false;
  ruleBox.hidden = true;
  // `at` is the place the action takes in the log: sent again, it is answered, never applied twice.
  pending = { token, at: doc.actions + 1 };
  if (socket.send({ type: "action", action: token, at: pending.at })) {
    pending.timer = setTimeout(recover, 6000); // no answer: ask the server over HTTP
  } else {
    sendOverHttp(pending);
  }
  return true;
}

function sendOverHttp({ token, at }) {
  post(`/api/sessions/${id}/actions`, { action: token, at })
    .then((next) => { settle(); show(next, { token }); })
    .catch((error) => { settle(); refused(error.status, error.error || { message: error.message }); });
}

// The socket went away with an action in flight: send it again over HTTP for the same place in
// the log. If the server had applied it, the answer is the game as it is now.
function recover() {
  const lost = pending;
  if (!lost) return;
  clearTimeout(lost.timer);
  sendOverHttp(lost);
}

function settle() {
  if (pending) clearTimeout(pending.timer);
  pending = null;
}

function refused(status, error) {
  if (status === 422 || status === 400) {
    showRule(error.message);
  } else if (status === 409) {
    resync();
  } else if (status === 0) {
    toast(gettext("No connection. Trying again…"), { kind: "error" });
  } else if (status === 429) {
    toast(gettext("Too fast: wait a moment and try again."), { kind: "error" });
  } else {
    toast(error.message || gettext("Something went wrong."), { kind: "error" });
  }
  if (doc) show(doc); // put dragged cards back
}

async function resync() {
  settle();
  try {
    show(await get(`/api/sessions/${id}`));
  } catch (error) {
    toast(error.message, { kind: "error" });
  }
}

const connection = $("[data-connection]");
const socket = new LiveSocket(`/ws/play/${id}/`, {
  onMessage(message) {
    if (message.type === "session") {
      const token = pending ? pending.token : null;
      settle();
      show(message, { token });
    } else if (message.type === "error") {
      settle();
      refused(message.status || 422, message.error || {});
    }
  },
  onStatus(status) {
    connection.dataset.state = status;
    connection.textContent = statusText(status);
    if (status === "closed" && pending) recover();
  },
});

// ---------------------------------------------------------------- gestures

function highlightFor(src) {
  if (!options.placementAid) return;
  if (src.suit) board.highlight(moves.back.get(src.suit) || []);
  else {
    const t = moves.targets(src.col, src.n);
    board.highlight(t.cols, t.foundation);
  }
}

function canDrag(src) {
  if (!doc || doc.finished || pending) return false;
  return src.suit ? moves.canDragFoundation(src.suit) : moves.canDrag(src.col, src.n);
}

function drop(src, at) {
  board.highlight([]);
  if (src.suit) {
    return at.col ? act(`F${src.suit}>${at.col}`) : false;
  }
  const targets = moves.targets(src.col, src.n);
  if (at.foundation && russian() && src.n === 1 && (targets.foundation || !options.autoPlacement)) {
    return act(`${src.col}>F`); // the server finds the suit's foundation; a refusal says why
  }
  if (at.col && targets.cols.includes(at.col)) return act(moveToken(src.col, src.n, at.col));
  if (options.autoPlacement) {
    const best = moves.bestFor(src.col, src.n) || (targets.foundation ? `${src.col}>F` : null);
    if (best) return act(best);
  }
  if (at.col && at.col !== src.col) return act(moveToken(src.col, src.n, at.col)); // refused: the rule shows
  return false;
}

function best(src) {
  if (src.suit) return;
  const token = moves.bestFor(src.col, src.n) || (russian() && src.n === 1 ? moves.tapFor(src.col) : null);
  if (token) act(token);
  else if (options.interactiveRules) showRule(gettext("These cards have nowhere to go now."));
}

new Pointer(board, {
  canDrag,
  onDragStart: highlightFor,
  onDrop: drop,
  onTap(src) {
    // Spider and Spiderette: a single click does nothing. Russian: a tap on a column's last
    // card sends it home (after the double-tap window, when double-click is on).
    if (!russian() || src.suit || src.n !== 1) return;
    const token = moves.tapFor(src.col);
    if (!token) return;
    clearTimeout(tapTimer);
    if (!options.doubleClick) act(token);
    else tapTimer = setTimeout(() => act(token), 300);
  },
  onDoubleTap(src) {
    clearTimeout(tapTimer);
    if (options.doubleClick) best(src);
  },
});

new Keyboard(board, {
  select(src) {
    if (!canDrag(src)) {
      if (options.interactiveRules) showRule(gettext("These cards can't move now."));
      return false;
    }
    board.highlight([]);
    const t = src.suit ? { cols: moves.back.get(src.suit) || [], foundation: false } : moves.targets(src.col, src.n);
    board.highlight(t.cols, t.foundation); // the keyboard always shows where it can go
    root.querySelectorAll(".selected").forEach((n) => n.classList.remove("selected"));
    const cards = src.suit ? [root.querySelector(`[data-foundation="${src.suit}"]`)] : board.groupCards(src.col, src.n);
    cards.forEach((n) => n && n.classList.add("selected"));
    return true;
  },
  drop: (src, at) => drop(src, at),
  best,
  deal: () => act("D"),
  undo: () => { if (moves.undo) act("U"); },
  cancel() {
    board.highlight([]);
    root.querySelectorAll(".selected").forEach((n) => n.classList.remove("selected"));
  },
});

root.addEventListener("click", (e) => {
  if (e.target.closest("[data-stock]")) act("D");
});

// ---------------------------------------------------------------- buttons and dialogs

$("[data-undo]").addEventListener("click", () => act("U"));

function canRestart() {
  return Boolean(doc && (doc.code || (doc.daily && doc.finished)));
}

async function start(body) {
  try {
    const session = await post("/api/sessions", body);
    location.assign(`/play/${session.id}/`);
  } catch (error) {
    toast(error.message, { kind: "error" });
  }
}

function restart() {
  if (doc.code) start({ code: doc.code });
  else if (doc.daily) start({ daily: variant() });
}
$("[data-restart]").addEventListener("click", restart);

const newDialog = $("[data-new-dialog]");
const picker = new Picker(newDialog.querySelector("[data-picker]"));
$("[data-new]").addEventListener("click", () => {
  picker.variant = variant();
  newDialog.showModal();
});
newDialog.querySelector("[data-close]").addEventListener("click", () => newDialog.close());
newDialog.querySelector("form").addEventListener("submit", (e) => {
  e.preventDefault();
  newDialog.close();
  start({ variant: picker.variant });
});

const optionsDialog = $("[data-options-dialog]");
$("[data-options-open]").addEventListener("click", () => {
  for (const box of optionsDialog.querySelectorAll("input[type=checkbox]")) box.checked = options[box.name];
  optionsDialog.showModal();
});
optionsDialog.addEventListener("change", (e) => {
  if (e.target.name in options) {
    options[e.target.name] = e.target.checked;
    saveOptions(options);
  }
});

const finishButton = $("[data-finish]");
finishButton.addEventListener("click", () => {
  if (!finishButton.dataset.confirm) {
    finishButton.dataset.confirm = "1";
    finishButton.textContent = gettext("Really end this game?");
    setTimeout(() => { delete finishButton.dataset.confirm; finishButton.textContent = gettext("End game"); }, 4000);
    return;
  }
  delete finishButton.dataset.confirm;
  finishButton.textContent = gettext("End game");
  post(`/api/sessions/${id}/finish`).then((next) => show(next)).catch((error) => refused(error.status, error.error || {}));
});

const resultDialog = $("[data-result-dialog]");
function showResult() {
  resultShown = true;
  const r = doc.result;
  resultDialog.querySelector("[data-result-title]").textContent = r.won ? gettext("You won!") : gettext("Game over");
  const facts = resultDialog.querySelector("[data-result-facts]");
  facts.replaceChildren();
  const add = (term, value) => {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = value;
    facts.append(dt, dd);
  };
  add(gettext("Verified score"), r.score);
  add(gettext("Moves"), r.moves);
  if (r.sequences !== undefined && r.sequences !== null) add(gettext("Sequences removed"), r.sequences);
  if (r.cards_home !== undefined && r.cards_home !== null) add(gettext("Cards home"), r.cards_home);
  add(gettext("Time"), duration(r.elapsed_ms));
  const rankLine = resultDialog.querySelector("[data-result-rank]");
  const link = resultDialog.querySelector("[data-result-board]");
  const boardId = r.board || doc.board;
  if (boardId) {
    rankLine.textContent = r.rank ? fmt(gettext("Your rank on this deal's leaderboard: %(rank)s"), { rank: r.rank })
      : gettext("Your result is on the leaderboard.");
    link.href = `/leaderboards/${encodeURIComponent(boardId)}/`;
    link.hidden = false;
  } else {
    rankLine.textContent = doc.ranked === false && doc.daily
      ? gettext("This was practice: only the first attempt at a daily is ranked.")
      : gettext("Guests appear on no leaderboard. Sign up to rank your next games.");
    link.hidden = true;
  }
  resultDialog.querySelector("[data-result-again]").hidden = !canRestart();
  resultDialog.showModal();
}
resultDialog.querySelector("[data-result-again]").addEventListener("click", restart);
resultDialog.querySelector("[data-result-new]").addEventListener("click", () => {
  resultDialog.close();
  picker.variant = variant();
  newDialog.showModal();
});

// ---------------------------------------------------------------- start

get(`/api/sessions/${id}`)
  .then((first) => { if (!doc) show(first); })
  .catch((error) => {
    ruleBox.hidden = false;
    ruleBox.textContent = error.status === 404 ? gettext("There is no such game.") : error.message;
  });
