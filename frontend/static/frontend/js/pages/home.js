// Home: pick a game and variant for a new deal, play a code, or take on today's dailies.
import { get, post } from "../api.js";
import { Picker } from "../picker.js";
import { variantLabel, DAILY_VARIANTS } from "../variants.js";
import { gettext } from "../i18n.js";
import { el, toast } from "../ui.js";

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

// The server's solver won this deal before the day began (docs/dailies.md).
function certifiedBadge() {
  return el("span", { class: "daily-certified", title: gettext("The server's solver won this deal before the day began.") },
    gettext("Certified winnable"));
}

function dailyItem(daily) {
  const label = variantLabel(daily.variant);
  let state = gettext("Not played yet");
  let action = gettext("Play");
  if (daily.finished) {
    state = gettext("Finished");
    action = gettext("Practice");
  } else if (daily.played) {
    state = gettext("In progress");
    action = gettext("Resume");
  }
  const button = guest ? signUpButton(label) : el("button", {
    type: "button",
    class: daily.played && !daily.finished ? "button primary" : "button",
    "aria-label": `${action}: ${label}`,
    onclick: () => {
      if (daily.played && !daily.finished && daily.session) location.assign(`/play/${daily.session}/`);
      else start({ daily: daily.variant });
    },
  }, action);
  return el("li", { class: `daily ${daily.finished ? "finished" : daily.played ? "played" : ""}` },
    el("span", { class: "daily-name" }, label, daily.certified ? certifiedBadge() : null),
    el("span", { class: "daily-state" }, daily.finished ? "✓ " : "", state),
    daily.code ? el("code", {}, daily.code) : null,
    daily.board ? el("a", { class: "daily-board", href: `/leaderboards/${encodeURIComponent(daily.board)}/` }, gettext("Leaderboard")) : null,
    button);
}

async function loadDailies() {
  const list = dailyList;
  try {
    const data = await get("/api/daily");
    document.querySelector("[data-daily-date]").textContent = data.date;
    list.replaceChildren(...data.dailies.map(dailyItem));
  } catch (error) {
    // Without the daily list the seven variants can still be started.
    list.replaceChildren(...DAILY_VARIANTS.map((variant) => dailyItem({
      variant, board: "", played: false, finished: false, session: null, code: null, certified: false, par: null,
    })));
    if (error.status && error.status !== 404) toast(error.message, { kind: "error" });
  }
}
loadDailies();
