// The play page: draws the server's session document, turns gestures into action tokens,
// sends them over the play socket (HTTP when the socket is down) and shows refusals in words.
// The socket sends the whole document on connect, then what changed (delta.js merges it), and
// pushes the game's changes made elsewhere (another tab or device), so the page follows its game.
import { get, post } from "../api.js";
import { LiveSocket, statusText } from "../socket.js";
import { merge, changesOf, documentOf, applies } from "../delta.js";
import { Board } from "../board.js";
import { Moves, moveToken, sameSource } from "../moves.js";
import { Pointer } from "../drag.js";
import { Keyboard } from "../keyboard.js";
import { animateFrom, celebrate } from "../animate.js";
import { setSounds, cue, play } from "../sounds.js";
import { InfoBar } from "../infobar.js";
import { loadOptions, bindOptionsDialog } from "../options.js";
import { setLook, setBack, refreshFaces } from "../cards.js";
import { Picker } from "../picker.js";
import { variantLabel } from "../variants.js";
import { RacePanel, countdown } from "../race.js";
import { gettext, fmt } from "../i18n.js";
import { duration, toast } from "../ui.js";
import { fairPlayNote, showRecap } from "../recap.js";

const root = document.querySelector("[data-play]");
const id = root.dataset.session;
const $ = (selector) => root.querySelector(selector);
const board = new Board($("[data-table]"));
const info = new InfoBar($("[data-infobar]"));
const ruleBox = $("[data-rule]");
const options = loadOptions();
setLook({ fourColour: options.fourColour });
setBack(options.back);
setSounds(options.sounds);

let doc = null;
// Whether `doc` is the document the open socket sent last: only then may its next delta apply.
let ownCopy = false;
let moves = new Moves(null);
let pending = null;
let tapTimer = null;
let resultShown = false;

const variant = () => (doc && doc.variant) || "";

// ---------------------------------------------------------------- drawing

function show(next, { token = null } = {}) {
  const before = doc ? board.snapshot() : null;
  const focusKey = focusedKey();
  cue(doc, next, token);
  doc = next;
  moves = new Moves(doc.finished ? null : doc);
  selected = null; // the cards it marked are drawn again
  board.render(doc.view, { table: doc.table });
  keyboard.rove();
  if (before) animateFrom(before, board, { fromStock: token === "D" });
  info.update(doc, variantLabel(variant()));
  $("[data-play-title]").textContent = variantLabel(variant());
  const undo = $("[data-undo]");
  undo.disabled = !moves.undo;
  // A ranked game on a hidden deal (a daily's attempt, a race on a fresh deal): the server offers no
  // undo that would take back a dealt row or a turned card, and the button says why (docs/rules.md).
  const blind = !doc.finished && doc.code === null && ((doc.daily && doc.ranked) || doc.room);
  undo.title = undo.disabled && blind && doc.view.undo_available
    ? gettext("In a ranked game on a hidden deal an undo cannot take back a dealt row or a card turned face up.")
    : gettext("Undo (Ctrl+Z)");
  $("[data-finish]").hidden = doc.finished;
  // The server names why a game gives no hint (a ranked blind deal): the button says so, and a
  // press shows it in words, on a phone too, where a title is never seen.
  const hint = $("[data-hint]");
  hint.hidden = doc.finished;
  hint.setAttribute("aria-disabled", doc.hint_refusal ? "true" : "false");
  hint.title = doc.hint_refusal || gettext("Hint (H): counted on the game, which is then not clean");
  $("[data-play-out]").hidden = !doc.play_out;
  const restart = $("[data-restart]");
  restart.disabled = !canRestart();
  restart.title = !restart.disabled ? ""
    : doc.room ? gettext("The race's code is shown when the race is over")
      : gettext("The daily's code is hidden until the day is over");
  race(doc);
  root.classList.toggle("russian", doc.table.foundations > 0);
  root.classList.toggle("finished", doc.finished);
  restoreFocus(focusKey);
  if (doc.finished && doc.result && !resultShown) {
    // The result at once, over the celebration of a win seen being made (a click or key ends it).
    if (doc.result.won && before) celebrate(board);
    showResult();
  }
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

// ---------------------------------------------------------------- feedback
// A refusal is said over the table, never above it: the banner floats (league.css), so the
// cards do not move when it comes and goes. Why a group cannot be picked up, or a drop is
// illegal, is asked of the server (the engine's rule in the player's words): nothing is played.

function showRule(message, { asked = false } = {}) {
  // A refusal is shown as the option says; an answer the player asked for (a hint), always.
  if ((!options.interactiveRules && !asked) || !message) return;
  ruleBox.textContent = message;
  ruleBox.hidden = false;
  clearTimeout(showRule.timer);
  showRule.timer = setTimeout(() => { ruleBox.hidden = true; }, 7000);
}

let question = 0;

function explain(query) {
  if (!options.interactiveRules || !doc || doc.finished || pending) return;
  const asked = ++question;
  const answer = (why) => { if (asked === question) onWhy(why); };
  if (socket.send({ type: "why", ...query })) {
    explain.waiting = answer;
    return;
  }
  const params = new URLSearchParams(query);
  get(`/api/sessions/${id}/why?${params}`).then(answer).catch((error) => {
    if (asked === question && error.error && error.error.message) showRule(error.error.message);
  });
}

function onWhy(why) {
  if (why.message) {
    play("refused");
    showRule(why.message);
  } else if (why.group && !(why.targets || []).length) showRule(gettext("These cards have nowhere to go now."));
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
    .then((next) => { settle(); ownCopy = false; show(next, { token }); })
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
    play("refused");
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

// The game as it is now: the whole document over the socket when it is open, else over HTTP.
async function resync() {
  settle();
  if (socket.send({ type: "sync" })) return;
  try {
    const next = await get(`/api/sessions/${id}`);
    ownCopy = false;
    show(next);
  } catch (error) {
    toast(error.message, { kind: "error" });
  }
}

// The socket pushes what is played elsewhere, but not while the server's live layer is away: a page
// that comes back into view (another tab, another window) asks for the game as it is now. One ask
// a second at most: switching back to a tab both shows it and focuses its window.
let lookedAgain = 0;
function lookAgain() {
  if (!doc || pending || document.visibilityState !== "visible" || Date.now() - lookedAgain < 1000) return;
  lookedAgain = Date.now();
  resync();
}
document.addEventListener("visibilitychange", lookAgain);
window.addEventListener("focus", lookAgain);

const connection = $("[data-connection]");
const socket = new LiveSocket(`/ws/play/${id}/`, {
  onMessage(message) {
    if (message.type === "session" || message.type === "delta") {
      // A delta for another copy than ours (one fetched over HTTP meanwhile): ask for the whole
      // document, which then answers the action in flight too.
      if (message.type === "delta" && !applies(doc, message, ownCopy)) {
        socket.send({ type: "sync" });
        return;
      }
      const next = message.type === "session" ? documentOf(message) : merge(doc, changesOf(message));
      // Pushed: the game was played elsewhere; an action in flight still waits for its own answer.
      const token = pending && !message.pushed ? pending.token : null;
      if (!message.pushed) settle();
      ownCopy = true;
      show(next, { token });
    } else if (message.type === "why") {
      const answer = explain.waiting;
      explain.waiting = null;
      if (answer) answer(message);
    } else if (message.type === "error") {
      if (!pending && explain.waiting) { // a question refused (a race not yet on): say so
        explain.waiting = null;
        showRule((message.error || {}).message);
        return;
      }
      settle();
      refused(message.status || 422, message.error || {});
    }
  },
  onStatus(status) {
    connection.dataset.state = status;
    connection.textContent = statusText(status);
    if (status !== "open") ownCopy = false; // the next connection starts with the whole document
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

// A legal drop is played; an illegal one snaps back (false) and the server says why.
function drop(src, at) {
  board.highlight([]);
  if (src.suit) {
    if (!at.col) return false;
    const token = `F${src.suit}>${at.col}`;
    if ((moves.back.get(src.suit) || []).includes(at.col)) return act(token);
    explain({ action: token });
    return false;
  }
  const targets = moves.targets(src.col, src.n);
  if (at.foundation && moves.goesHome(src.n) && (targets.foundation || !options.autoPlacement)) {
    if (targets.foundation) return act(`${src.col}>F`); // the server finds the suit's foundation
    explain({ action: `${src.col}>F` });
    return false;
  }
  if (at.col && targets.cols.includes(at.col)) return act(moveToken(src.col, src.n, at.col));
  if (options.autoPlacement) {
    const best = moves.bestFor(src.col, src.n) || (targets.foundation ? `${src.col}>F` : null);
    if (best) return act(best);
  }
  if (at.col && at.col !== src.col) explain({ action: moveToken(src.col, src.n, at.col) });
  return false;
}

function best(src) {
  if (src.suit) return;
  const token = moves.bestFor(src.col, src.n) || (moves.goesHome(src.n) ? moves.tapFor(src.col) : null);
  if (token) act(token);
  else explain({ group: `${src.col}:${src.n}` }); // the rule, or "nowhere to go"
}

// ---------------------------------------------------------------- picking up and putting down
// A tap (or Enter) picks a group up, marked on the table with the places the server's legal list
// names for it; the next tap on a column (or Enter there, or its number key) sends the move as
// an action token, which the server judges: a refused one comes back with its rule in words.
// A second tap on the group, or anywhere else, lets go.

let selected = null;

function select(src) {
  unselect();
  if (!canDrag(src)) {
    if (!src.suit) explain({ group: `${src.col}:${src.n}` }); // the rule, or "nowhere to go"
    return false;
  }
  selected = src;
  const t = src.suit ? { cols: moves.back.get(src.suit) || [], foundation: false } : moves.targets(src.col, src.n);
  board.highlight(t.cols, t.foundation);
  const cards = src.suit ? [root.querySelector(`[data-foundation="${src.suit}"]`)] : board.groupCards(src.col, src.n);
  cards.forEach((n) => n && n.classList.add("selected"));
  return true;
}

function unselect() {
  selected = null;
  board.highlight([]);
  root.querySelectorAll(".selected, .hinted").forEach((n) => n.classList.remove("selected", "hinted"));
}

function moveTo(at) {
  const src = selected;
  unselect();
  if (!src) return false;
  if (at.col && src.suit) return act(`F${src.suit}>${at.col}`);
  if (at.col && at.col !== src.col) return act(moveToken(src.col, src.n, at.col));
  if (at.foundation && !src.suit && moves.goesHome(src.n)) return act(`${src.col}>F`);
  return false;
}

// Outside the table (a button, the page) a tap lets go too.
document.addEventListener("pointerdown", (e) => {
  if (selected && !board.root.contains(e.target)) unselect();
});

new Pointer(board, {
  canDrag,
  onRefused(src) {
    if (!src.suit) explain({ group: `${src.col}:${src.n}` });
  },
  onDragStart(src) {
    unselect();
    highlightFor(src);
  },
  onDrop: drop,
  onTap(src) {
    if (selected) {
      if (sameSource(src, selected)) unselect();
      else if (src.suit && !selected.suit) moveTo({ col: null, foundation: src.suit });
      else if (!src.suit && src.col !== selected.col) moveTo({ col: src.col, foundation: null });
      else select(src); // another group of the same column, or another foundation
      return;
    }
    // Russian: a tap on a column's last card sends it home (after the double-tap window, when
    // double-click is on). Anything else is picked up.
    const home = !src.suit && moves.goesHome(src.n) ? moves.tapFor(src.col) : null;
    if (!home) {
      select(src);
      return;
    }
    clearTimeout(tapTimer);
    if (!options.doubleClick) act(home);
    else tapTimer = setTimeout(() => act(home), 300);
  },
  onDoubleTap(src) {
    clearTimeout(tapTimer);
    unselect();
    if (options.doubleClick) best(src);
  },
  onTapPlace(at) {
    if (selected && (at.col || at.foundation) && at.col !== selected.col) moveTo(at);
    else unselect();
  },
});

const keyboard = new Keyboard(board, {
  selected: () => selected,
  select,
  moveTo,
  best,
  unselect,
  deal: () => act("D"),
  undo: () => { if (moves.undo) act("U"); },
  hint: askHint,
});

document.querySelector("[data-skip-to-cards]").addEventListener("click", (e) => {
  const card = keyboard.stop();
  if (!card) return;
  e.preventDefault();
  card.focus();
});

root.addEventListener("click", (e) => {
  if (e.target.closest("[data-stock]")) act("D");
});

// ---------------------------------------------------------------- buttons and dialogs

$("[data-undo]").addEventListener("click", () => act("U"));

// ---------------------------------------------------------------- hints and the play-out
// A hint is asked of the server, which names the action, the cards (column and count), and where
// they go: the page marks them and says why in words. Nothing is played: the player plays it.

let hinting = false;

async function askHint() {
  if (!doc || doc.finished || pending || hinting) return;
  if (doc.hint_refusal) {
    showRule(doc.hint_refusal, { asked: true });
    return;
  }
  hinting = true;
  try {
    const answer = await post(`/api/sessions/${id}/hint`);
    showHint(answer);
  } catch (error) {
    if (error.status === 409) resync(); // the game moved on, or ended, meanwhile
    showRule((error.error || {}).message || error.message, { asked: true });
  } finally {
    hinting = false;
  }
}

function showHint(answer) {
  unselect();
  showRule(answer.message, { asked: true });
  if (!answer.action) return;
  if (answer.reason === "deal") {
    const stock = root.querySelector("[data-stock]");
    if (stock) stock.classList.add("hinted");
    return;
  }
  board.groupCards(answer.column, answer.count).forEach((n) => n.classList.add("hinted"));
  board.highlight(answer.target ? [answer.target] : [], answer.foundation);
}

$("[data-hint]").addEventListener("click", askHint);

$("[data-play-out]").addEventListener("click", () => {
  if (!doc || doc.finished || pending) return;
  const button = $("[data-play-out]");
  button.disabled = true;
  post(`/api/sessions/${id}/play-out`)
    .then((next) => { ownCopy = false; show(next); })
    .catch((error) => {
      showRule((error.error || {}).message || error.message, { asked: true });
      resync();
    })
    .finally(() => { button.disabled = false; });
});

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

// A button that asks first: a press turns its words into the question, a second press within a
// few seconds does it (End game and Restart, which leave the game as it is).
function askFirst(button, question, action) {
  const words = button.querySelector("[data-words]") || button;
  const plain = words.textContent;
  let timer = null;
  const reset = () => {
    clearTimeout(timer);
    delete button.dataset.confirm;
    words.textContent = plain;
  };
  button.addEventListener("click", () => {
    if (button.dataset.confirm) {
      reset();
      action();
      return;
    }
    button.dataset.confirm = "1";
    words.textContent = question;
    timer = setTimeout(reset, 4000);
  });
}
askFirst($("[data-restart]"), gettext("Really restart?"), restart);

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

bindOptionsDialog($("[data-options-dialog]"), $("[data-options-open]"), options, (name) => {
  if (name === "fourColour") { setLook({ fourColour: options.fourColour }); refreshFaces(root); }
  if (name === "back") setBack(options.back);
  if (name === "sounds") { setSounds(options.sounds); play("move"); }
});

askFirst($("[data-finish]"), gettext("Really end this game?"), () => {
  post(`/api/sessions/${id}/finish`).then((next) => { ownCopy = false; show(next); }).catch((error) => refused(error.status, error.error || {}));
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
  add(gettext("Undos"), r.undos);
  add(gettext("Hints"), r.hints);
  const rankLine = resultDialog.querySelector("[data-result-rank]");
  const cleanLine = resultDialog.querySelector("[data-result-clean]");
  const link = resultDialog.querySelector("[data-result-board]");
  const cleanLink = resultDialog.querySelector("[data-result-clean-board]");
  // Clean: no undo and no hint. Only a clean game ranks on the board's clean twin.
  cleanLine.textContent = r.undos === 0 && r.hints === 0 ? gettext("A clean game: no undo, no hint.")
    : gettext("Not a clean game: only games without an undo or a hint rank on the clean board.");
  cleanLink.hidden = true;
  const boardId = r.board || doc.board;
  $("[data-result-room]").hidden = !doc.room;
  if (doc.room) $("[data-result-room]").href = `/rooms/${doc.room}/`;
  if (!boardId && doc.ranked) {
    // A race on a fresh deal: its board is named by the code, shown when the race is over.
    rankLine.textContent = gettext("Your verified result joins this deal's leaderboard when the race is over.");
    link.hidden = true;
  } else if (boardId) {
    const held = r.fair_play && ["under_review", "voided"].includes(r.fair_play.status);
    rankLine.textContent = r.rank ? fmt(gettext("Your rank on this deal's leaderboard: %(rank)s"), { rank: r.rank })
      : held ? gettext("Your result is not on the leaderboard.") : gettext("Your result is on the leaderboard.");
    link.href = `/leaderboards/${encodeURIComponent(boardId)}/`;
    link.hidden = false;
    if (r.clean_board) {
      if (r.clean_rank) {
        cleanLine.textContent += " " + fmt(gettext("Your rank on the clean board: %(rank)s"), { rank: r.clean_rank });
      }
      cleanLink.href = `/leaderboards/${encodeURIComponent(r.clean_board)}/`;
      cleanLink.hidden = false;
    }
  } else {
    rankLine.textContent = doc.ranked === false && doc.daily
      ? gettext("This was practice: only the first attempt at a daily is ranked.")
      : gettext("Guests appear on no leaderboard. Sign up to rank your next games.");
    link.hidden = true;
  }
  const note = fairPlayNote(r.fair_play);
  resultDialog.querySelector("[data-result-fair-play]").replaceChildren(...(note ? [note] : []));
  resultDialog.querySelector("[data-result-again]").hidden = !canRestart();
  // A daily's ranked attempt: its recap (par, next dailies, streak, Share) under the result.
  const recapBox = resultDialog.querySelector("[data-recap]");
  recapBox.hidden = true;
  if (doc.daily && doc.ranked && boardId) showRecap(recapBox, { variant: variant(), date: doc.daily, facts: false });
  resultDialog.showModal();
  // It opens as the game ends, maybe amid the keys of the last move: the dialog itself takes the
  // focus, so that a key pressed in stride (Enter) plays none of its buttons.
  resultDialog.tabIndex = -1;
  resultDialog.focus();
}
resultDialog.querySelector("[data-result-again]").addEventListener("click", restart);
resultDialog.querySelector("[data-result-new]").addEventListener("click", () => {
  resultDialog.close();
  picker.variant = variant();
  newDialog.showModal();
});

// ---------------------------------------------------------------- races
// A game in a race room: the others' progress beside the table (race.js), the countdown to the
// go (the server deals the table face down until then), the final table and the way back.

let racePanel = null;
let counting = false;

function race(next) {
  if (next.room && !racePanel) {
    racePanel = new RacePanel($("[data-race]"), {
      roomId: next.room,
      goal: next.table.goal,
      total: next.table.goal_total,
      me: root.dataset.me,
      // Once the race is over its code and board are shown: fetch the game again to show them.
      onRoom: (room) => { if (room.state === "finished" && doc && !doc.code) resync(); },
    });
  }
  if (next.starts_in_ms > 0 && !counting) {
    counting = true;
    countdown($("[data-countdown]"), next.starts_in_ms, () => { counting = false; resync(); });
  }
}

// ---------------------------------------------------------------- start

get(`/api/sessions/${id}`)
  .then((first) => { if (!doc) show(first); }) // ownCopy stays false: the socket's first frame is whole
  .catch((error) => {
    ruleBox.hidden = false;
    ruleBox.textContent = error.status === 404 ? gettext("There is no such game.") : error.message;
  });
