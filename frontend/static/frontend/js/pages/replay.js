// The replay viewer: the full state after N actions, from the server, with step controls, a play
// that steps by itself at a chosen speed, and the address of the step shown (?step=N), which opens
// the replay there and which the share button copies. Its source is a player's verified game or a
// daily's par line or a race's deal's (the solver's winning line), shown alike.
import { get } from "../api.js";
import { Board } from "../board.js";
import { animateFrom } from "../animate.js";
import { loadOptions } from "../options.js";
import { setLook, setBack } from "../cards.js";
import { variantOf, variantLabel } from "../variants.js";
import { gettext, pgettext, fmt } from "../i18n.js";
import { duration, dayName, copyText } from "../ui.js";

const root = document.querySelector("[data-replay]");
const source = root.dataset.source;
const options = loadOptions();
setLook({ fourColour: options.fourColour });
setBack(options.back);
const board = new Board(root.querySelector("[data-table]"));
const slider = root.querySelector("[data-slider]");
let step = 0;
let steps = 0;
let loading = null;
let shown = false;

async function go(target) {
  target = Math.max(0, Math.min(steps || target, target));
  const request = get(`${source}?step=${target}`);
  loading = request;
  let doc;
  try {
    doc = await request;
  } catch (error) {
    root.querySelector("[data-replay-facts]").textContent = error.message;
    return;
  }
  if (loading !== request) return;
  link(doc.step);
  const before = shown ? board.snapshot() : null;
  step = doc.step;
  steps = doc.steps;
  const code = doc.state.code || (doc.result && doc.result.code) || (doc.daily && doc.daily.code) || (doc.race && doc.race.code);
  const variant = variantOf(code);
  board.render(doc.state, { table: doc.table, known: true });
  if (before) animateFrom(before, board, { fromStock: doc.token === "D" });
  shown = true;
  slider.max = String(steps);
  slider.value = String(step);
  root.querySelector("[data-step]").textContent = fmt(gettext("Step %(step)s of %(steps)s"), { step, steps });
  root.querySelector("[data-token]").textContent = doc.token ? fmt(gettext("Action: %(token)s"), { token: doc.token }) : gettext("The deal");
  root.querySelector("[data-score]").textContent = doc.state.score;
  root.querySelector("[data-moves]").textContent = doc.state.moves;
  root.querySelector("[data-replay-facts]").textContent = doc.daily ? parFacts(doc.daily, code)
    : doc.race ? fmt(gettext("The solver's winning line on a race's deal · %(code)s"), { code })
      : resultFacts(doc.result || {}, code);
  root.querySelector("[data-replay-title]").textContent = doc.daily
    ? `${gettext("Par line")}: ${variantLabel(variant)}`
    : doc.race ? `${gettext("The solver's line")}: ${variantLabel(variant)}`
      : `${gettext("Replay")}: ${variantLabel(variant)}`;
  root.querySelector("[data-first]").disabled = step === 0;
  root.querySelector("[data-back]").disabled = step === 0;
  root.querySelector("[data-forward]").disabled = step >= steps;
  root.querySelector("[data-last]").disabled = step >= steps;
}

function resultFacts(r, code) {
  return [
    r.player, code, r.won ? gettext("Won") : null,
    r.score !== undefined ? `${gettext("Score")} ${r.score}` : null,
    r.elapsed_ms ? duration(r.elapsed_ms) : null,
  ].filter(Boolean).join(" · ");
}

function parFacts(daily, code) {
  return [
    fmt(gettext("The solver's winning line on the daily of %(date)s"), { date: dayName(daily.date) }),
    code, fmt(gettext("Par %(par)s"), { par: daily.par }),
  ].join(" · ");
}

// ---------------------------------------------------------------- the step's address

function stepUrl(n) {
  const url = new URL(location.href);
  url.searchParams.set("step", String(n));
  url.hash = "";
  return url;
}

// The address follows the step shown, without a history entry for each.
function link(n) {
  const url = stepUrl(n);
  if (url.href !== location.href) history.replaceState(null, "", url);
}

const shareStatus = root.querySelector("[data-share-status]");
const shareLink = root.querySelector("[data-share-link]");
root.querySelector("[data-share-step]").addEventListener("click", () => copyText(stepUrl(step).href, {
  status: shareStatus,
  fallback: shareLink,
  copied: fmt(gettext("Link to step %(step)s copied."), { step }),
  byHand: gettext("Copy this link to share it:"),
}));

// ---------------------------------------------------------------- playing by itself

const STEP_MS = 700; // one action a step at 1×
const playButton = root.querySelector("[data-play-pause]");
const speed = root.querySelector("[data-speed]");
const stepOut = root.querySelector("[data-step]");
let playing = false;
let timer = null;

function setPlaying(on) {
  playing = on;
  clearTimeout(timer);
  if (!on) loading = null; // a step on its way when paused is not shown: the play stops where it is
  playButton.querySelector("[data-play-icon]").textContent = on ? "❚❚" : "▶";
  playButton.querySelector("[data-play-words]").textContent = on ? pgettext("a replay", "Pause") : pgettext("a replay", "Play");
  playButton.setAttribute("aria-pressed", String(on));
  stepOut.setAttribute("aria-live", on ? "off" : "polite"); // no word for every step while it plays
  if (on) schedule();
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    if (!playing) return;
    if (step >= steps) {
      setPlaying(false);
      return;
    }
    await go(step + 1);
    if (playing) schedule();
  }, STEP_MS / Number(speed.value || 1));
}

function toggle() {
  if (!playing && step >= steps) go(0).then(() => setPlaying(true)); // from the start again
  else setPlaying(!playing);
}

// A step asked for by hand stops the play there.
function stepTo(target) {
  setPlaying(false);
  go(target);
}

playButton.addEventListener("click", toggle);
speed.addEventListener("change", () => { if (playing) schedule(); });
root.querySelector("[data-first]").addEventListener("click", () => stepTo(0));
root.querySelector("[data-back]").addEventListener("click", () => stepTo(step - 1));
root.querySelector("[data-forward]").addEventListener("click", () => stepTo(step + 1));
root.querySelector("[data-last]").addEventListener("click", () => stepTo(steps));
slider.addEventListener("change", () => stepTo(Number(slider.value)));
addEventListener("keydown", (e) => {
  if (e.target.closest("input, select, textarea")) return;
  if (e.key === "ArrowRight") stepTo(step + 1);
  else if (e.key === "ArrowLeft") stepTo(step - 1);
  else if (e.key === "Home") stepTo(0);
  else if (e.key === "End") stepTo(steps);
  else if (e.key === " " && !e.target.closest("button, a")) {
    e.preventDefault();
    toggle();
  }
});
const start = Number.parseInt(new URLSearchParams(location.search).get("step") || "0", 10);
go(Number.isFinite(start) && start > 0 ? start : 0);
