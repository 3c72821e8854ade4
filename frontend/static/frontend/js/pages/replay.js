// The replay viewer: the full state after N actions, from the server, with step controls. Its source
// is a player's verified game or a daily's par line (the solver's winning line), shown alike.
import { get } from "../api.js";
import { Board } from "../board.js";
import { animateFrom } from "../animate.js";
import { loadOptions } from "../options.js";
import { setLook, setBack } from "../cards.js";
import { variantOf, variantLabel } from "../variants.js";
import { gettext, fmt } from "../i18n.js";
import { duration, dayName } from "../ui.js";

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
  const before = shown ? board.snapshot() : null;
  step = doc.step;
  steps = doc.steps;
  const code = doc.state.code || (doc.result && doc.result.code) || (doc.daily && doc.daily.code);
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
  root.querySelector("[data-replay-facts]").textContent = doc.daily ? parFacts(doc.daily, code) : resultFacts(doc.result || {}, code);
  root.querySelector("[data-replay-title]").textContent = doc.daily
    ? `${gettext("Par line")}: ${variantLabel(variant)}`
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

root.querySelector("[data-first]").addEventListener("click", () => go(0));
root.querySelector("[data-back]").addEventListener("click", () => go(step - 1));
root.querySelector("[data-forward]").addEventListener("click", () => go(step + 1));
root.querySelector("[data-last]").addEventListener("click", () => go(steps));
slider.addEventListener("change", () => go(Number(slider.value)));
addEventListener("keydown", (e) => {
  if (e.target.closest("input, select, textarea")) return;
  if (e.key === "ArrowRight") go(step + 1);
  else if (e.key === "ArrowLeft") go(step - 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(steps);
});
const start = Number(new URLSearchParams(location.search).get("step") || 0);
go(start);
