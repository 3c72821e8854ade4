// "Continue where you left off": my unfinished games (GET /api/sessions?open=1), newest first, each
// one tap from its table. Race games are not listed: their room leads back to them.
import { get } from "./api.js";
import { variantLabel } from "./variants.js";
import { gettext, ngettext, fmt, language } from "./i18n.js";
import { el, dayName } from "./ui.js";

const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60]];

// "5 minutes ago", "yesterday", in the page's language.
export function ago(iso, now = Date.now()) {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const words = new Intl.RelativeTimeFormat(language(), { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return words.format(Math.round(seconds / size), unit);
  }
  return words.format(0, "minute");
}

function item(session) {
  const label = variantLabel(session.variant);
  const today = new Date().toISOString().slice(0, 10);
  const kind = !session.daily ? session.code
    : session.daily === today ? gettext("Today's daily") : fmt(gettext("Daily of %(date)s"), { date: dayName(session.daily) });
  const moves = fmt(ngettext("%(n)s move", "%(n)s moves", session.moves), { n: session.moves });
  const started = fmt(gettext("started %(when)s"), { when: ago(session.started_at) });
  return el("li", {},
    el("a", { href: `/play/${session.id}/` },
      el("span", { class: "continue-name" }, label),
      el("span", { class: "continue-meta" }, [kind, moves, started].filter(Boolean).join(" · ")),
      el("span", { class: "continue-go" }, gettext("Continue"), el("span", { "aria-hidden": "true" }, " →"))));
}

// Fill the section's list; a section with nothing to continue stays hidden.
export async function showContinue(section) {
  const list = section.querySelector("[data-continue-list]");
  let sessions = [];
  try {
    sessions = (await get("/api/sessions?open=1")).sessions;
  } catch {
    sessions = [];
  }
  list.replaceChildren(...sessions.map(item));
  section.hidden = sessions.length === 0;
}
