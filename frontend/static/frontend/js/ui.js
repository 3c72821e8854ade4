// Small page helpers: a status toast, element building, durations and dates.
import { gettext, language } from "./i18n.js";

let toastTimer = null;

export function toast(message, { kind = "info", ms = 4000 } = {}) {
  const box = document.querySelector(".toast");
  if (!box) return;
  box.textContent = message;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, ms);
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function duration(ms) {
  if (ms === null || ms === undefined) return "—";
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

// A calendar day ("2026-12-06", as the server names a daily's day) in the page's language:
// "6 December 2026", "6. joulukuuta 2026", "6. prosinca 2026."; with its weekday if asked.
export function dayName(iso, { weekday = false } = {}) {
  const date = new Date(`${iso}T12:00:00Z`);
  if (!iso || Number.isNaN(date.getTime())) return iso || "";
  return date.toLocaleDateString(language(), {
    weekday: weekday ? "long" : undefined, year: "numeric", month: "long", day: "numeric", timeZone: "UTC",
  });
}

export function shortDate(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return date.toLocaleDateString(language(), { year: "numeric", month: "short", day: "numeric" });
}

export function dateTime(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

// Copies `text` for the player: to the clipboard, else (none here: an insecure page, a refusal) into
// `fallback` (a text field), shown and selected to copy by hand. `status` says which: `copied` or `byHand`.
export async function copyText(text, { status, fallback, copied, byHand }) {
  try {
    if (!navigator.clipboard || !window.isSecureContext) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
    fallback.hidden = true;
    status.textContent = copied;
    return true;
  } catch {
    fallback.value = text;
    fallback.hidden = false;
    fallback.focus();
    fallback.select();
    status.textContent = byHand;
    return false;
  }
}

// A link to a result's replay: "Watch", or "▶" where a phone's board table has no room for the word
// (league.css; the word stays for screen readers).
export function watchLink(result) {
  return el("a", { href: `/replay/${result}/` },
    el("span", { class: "short-label", "aria-hidden": "true" }, "▶"),
    el("span", { class: "long-label" }, gettext("Watch")));
}
