// Home: pick a game and variant for a new deal, play a code, take on today's dailies (with a recap
// of each one finished), or continue an unfinished game.
import { post, request } from "../api.js";
import { Picker } from "../picker.js";
import { variantLabel, DAILY_VARIANTS } from "../variants.js";
import { gettext } from "../i18n.js";
import { el, toast, dayName } from "../ui.js";
import { showRecap, recapHeadline, nextDailies } from "../recap.js";
import { showContinue } from "../continue.js";
import { topThree } from "../podium.js";

const PICK_KEY = "solitaire-league.variant";

async function start(body, errorBox) {
  try {
    const session = await post("/api/sessions", body);
    location.assign(`/play/${session.id}/`);
  } catch (error) {
    if (errorBox) {
      errorBox.textContent = error.message;
      errorBox.hidden = false;
    } else {
      toast(error.message, { kind: "error" });
    }
  }
}

const newForm = document.querySelector("[data-new-game]");
const picker = new Picker(newForm, {
  onChange: (variant) => { try { localStorage.setItem(PICK_KEY, variant); } catch { /* ignore */ } },
});
try {
  const saved = localStorage.getItem(PICK_KEY);
  if (saved) picker.variant = saved;
} catch { /* ignore */ }
newForm.addEventListener("submit", (e) => {
  e.preventDefault();
  start({ variant: picker.variant });
});

const codeForm = document.querySelector("[data-code-form]");
codeForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const errorBox = codeForm.querySelector(".form-error");
  errorBox.hidden = true;
  start({ code: codeForm.code.value.trim() }, errorBox);
});

// Guests cannot start a daily before its day is over: they get a sign-up button instead of "Play".
const dailyList = document.querySelector("[data-dailies]");
const guest = dailyList.hasAttribute("data-guest");

function signUpButton(label) {
  return el("a", { class: "button primary", href: dailyList.dataset.signup, "aria-label": `${gettext("Sign up to play")}: ${label}` },
    gettext("Sign up to play"));
}

// What the page says of a daily's certification (docs/dailies.md), only what is true: the solver
// won it; or it tried candidates and won none; or it was stored before certification existed.
// An answer without `certification` (an older server) has only `certified`.
function certificationOf(daily) {
  return daily.certification ?? (daily.certified ? "certified" : null);
}

function certifiedBadge(daily) {
  if (certificationOf(daily) !== "certified") return null;
  return el("span", { class: "daily-certified", title: gettext("The server's solver won this deal before the day began.") },
    gettext("Certified winnable"));
}

const NOT_CERTIFIED = {
  none_won: () => gettext("Not certified: the solver found no win within its limits"),
  unchecked: () => gettext("Not certified: prepared before certification"),
};

function uncertifiedLine(daily) {
  const words = NOT_CERTIFIED[certificationOf(daily)];
  return words ? el("span", { class: "daily-uncertified" }, words()) : null;
}

// A finished daily's recap, fetched once per variant and kept while the list is drawn again.
const recaps = new Map();

function recapOf(daily) {
  if (!recaps.has(daily.variant)) {
    const box = el("div", { class: "daily-recap-body" });
    const details = el("details", { class: "daily-recap", hidden: true },
      el("summary", {}, gettext("Your recap")), box);
    showRecap(box, { variant: daily.variant, countdown: false }).then((recap) => {
      details.hidden = !recap;
      if (recap) details.querySelector("summary").textContent = `${gettext("Your recap")}: ${recapHeadline(recap)}`;
    });
    recaps.set(daily.variant, details);
  }
  return recaps.get(daily.variant);
}

// Each daily's top three, fetched once per board and kept while the list is drawn again.
const podiums = new Map();

function podiumOf(board) {
  if (!podiums.has(board)) podiums.set(board, topThree(board));
  return podiums.get(board);
}

function dailyItem(daily) {
  const label = variantLabel(daily.variant);
  // Today's daily still being prepared (no status: an older server, whose dailies are all ready).
  const preparing = daily.status === "preparing";
  let state = gettext("Not played yet");
  let action = gettext("Play");
  if (preparing) {
    state = gettext("Being prepared…");
  } else if (daily.finished) {
    state = gettext("Finished");
    action = gettext("Practice");
  } else if (daily.played) {
    state = gettext("In progress");
    action = gettext("Resume");
  }
  let button;
  if (preparing) {
    button = el("button", { type: "button", class: "button", disabled: true, "aria-label": `${action}: ${label}` }, action);
  } else if (guest) {
    button = signUpButton(label);
  } else {
    button = el("button", {
      type: "button",
      class: daily.played && !daily.finished ? "button primary" : "button",
      "aria-label": `${action}: ${label}`,
      onclick: () => {
        if (daily.played && !daily.finished && daily.session) location.assign(`/play/${daily.session}/`);
        else start({ daily: daily.variant });
      },
    }, action);
  }
  const kind = preparing ? "preparing" : daily.finished ? "finished" : daily.played ? "played" : "";
  return el("li", { class: `daily ${kind}`, "data-variant": daily.variant },
    el("span", { class: "daily-name" }, label, preparing ? null : certifiedBadge(daily)),
    preparing ? null : uncertifiedLine(daily),
    el("span", { class: "daily-state" }, daily.finished ? "✓ " : "", state),
    daily.code ? el("code", {}, daily.code) : null,
    // A daily being prepared has no board yet (its page would answer 404).
    daily.board && !preparing ? el("a", { class: "daily-board", href: `/leaderboards/${encodeURIComponent(daily.board)}/` }, gettext("Leaderboard")) : null,
    button,
    daily.board && !preparing ? podiumOf(daily.board) : null,
    daily.finished && !guest ? recapOf(daily) : null);
}

// While a daily is being prepared the server says when to ask again (Retry-After): the list is
// asked again then, and drawn again in place, until every daily is ready.
const RETRY_DEFAULT = 15;
let retryTimer = null;

function retryAfter(headers) {
  const seconds = Number.parseInt((headers && headers.get("Retry-After")) || "", 10);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 300) : RETRY_DEFAULT;
}

async function loadDailies() {
  const list = dailyList;
  clearTimeout(retryTimer);
  try {
    const { data, headers } = await request("GET", "/api/daily");
    document.querySelector("[data-daily-date]").textContent = dayName(data.date);
    list.replaceChildren(...data.dailies.map(dailyItem));
    list.toggleAttribute("aria-busy", data.dailies.some((d) => d.status === "preparing"));
    if (list.hasAttribute("aria-busy")) retryTimer = setTimeout(loadDailies, retryAfter(headers) * 1000);
  } catch (error) {
    if (error.status === 503) { // the service is away for a moment: say so, and ask again when it says
      list.replaceChildren(el("li", { class: "muted" }, error.message));
      retryTimer = setTimeout(loadDailies, retryAfter(error.headers) * 1000);
      return;
    }
    // Without the daily list the seven variants can still be started.
    list.replaceChildren(...DAILY_VARIANTS.map((variant) => dailyItem({
      variant, board: "", played: false, finished: false, session: null, code: null, certified: false, par: null,
    })));
    if (error.status && error.status !== 404) toast(error.message, { kind: "error" });
  }
}
loadDailies();

// One countdown to the next dailies for the whole list (00:00 UTC).
const tomorrow = new Date();
tomorrow.setUTCHours(24, 0, 0, 0);
document.querySelector("[data-next-dailies-slot]").replaceChildren(nextDailies(tomorrow.toISOString()));

const continueSection = document.querySelector("[data-continue]");
if (continueSection) showContinue(continueSection);
