// A finished race's review: the server's first departure of each game from the solver's winning
// line, each opening the replay viewer just before that action (the solver's line beside it).
import { get } from "../api.js";
import { gettext, fmt } from "../i18n.js";
import { el } from "../ui.js";

const root = document.querySelector("[data-race-review]");
const id = root.dataset.roomId;
const SOLVER = () => ({
  pending: gettext("The solver is looking for a winning line on this deal…"),
  won: gettext("The solver's winning line has %(steps)s actions."),
  unwinnable: gettext("The solver proved this deal cannot be won."),
  unknown: gettext("The solver found no winning line on this deal within %(seconds)s seconds."),
});

function mark(p, doc) {
  if (doc.solver.status !== "won" || p.result === null) return "—";
  if (p.left_line_at === null) {
    return p.won ? gettext("Followed it all the way") : gettext("Followed it until the game ended");
  }
  const before = p.left_line_at - 1;
  return [fmt(gettext("At action %(n)s"), { n: p.left_line_at }), " · ",
    el("a", { href: `/replay/${p.result}/?step=${before}` }, gettext("Their game there")), " · ",
    el("a", { href: `/replay/race/${id}/?step=${before}` }, gettext("The solver's line there"))];
}

async function load() {
  let doc;
  try {
    doc = await get(`/api/rooms/${id}/review`);
  } catch (error) {
    root.querySelector("[data-solver]").textContent = error.message;
    return;
  }
  const solver = doc.solver;
  root.querySelector("[data-solver]").textContent = fmt(SOLVER()[solver.status] || "", {
    steps: solver.steps, seconds: solver.seconds_budget });
  const line = root.querySelector("[data-line]");
  line.hidden = solver.status !== "won";
  line.href = `/replay/race/${id}/`;
  root.querySelector("[data-players]").replaceChildren(...doc.players.map((p, i) => el("tr", {},
    el("td", { class: "num" }, i + 1), el("td", {}, p.player), el("td", { class: "num" }, p.steps),
    el("td", { "data-left-line": p.left_line_at ?? "" }, mark(p, doc)))));
  if (solver.status === "pending") setTimeout(load, 3000);
}

load();
