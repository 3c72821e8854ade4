// Names of games and variants in the player's words; a variant is a game code without its deal letters.
import { gettext, fmt } from "./i18n.js";

export const DAILY_VARIANTS = ["SP1-S1C", "SP1-S2C", "SP1-S4C", "SD1-S1", "SD1-S2", "SD1-S4", "RU1-C"];

const GAME_NAMES = { SP1: "Spider", SD1: "Spiderette", RU1: "Russian Solitaire" };

export function variantOf(code) {
  return code ? code.split("-").slice(0, 2).join("-").toUpperCase() : null;
}

export function gameOf(variant) {
  return GAME_NAMES[(variant || "").slice(0, 3)] || "";
}

export function parseVariant(variant) {
  const [prefix, part] = (variant || "").toUpperCase().split("-");
  if (prefix === "RU1") return { prefix, suits: 4, rules: part };
  const suits = Number((part || "").slice(1, 2));
  const rules = prefix === "SD1" ? "C" : (part || "").slice(2) || "C";
  return { prefix, suits, rules };
}

export function buildVariant({ prefix, suits, rules }) {
  if (prefix === "RU1") return `RU1-${rules === "R" ? "R" : "C"}`;
  if (prefix === "SD1") return `SD1-S${suits}`;
  return `SP1-S${suits}${suits === 1 ? "C" : rules}`;
}

function level(suits) {
  return { 1: gettext("Easy"), 2: gettext("Medium"), 4: gettext("Hard") }[suits] || "";
}

// "Spider · 2 suits (Medium) · Relaxed"
export function variantLabel(variant) {
  const { prefix, suits, rules } = parseVariant(variant);
  const parts = [GAME_NAMES[prefix] || variant];
  if (prefix === "RU1") {
    parts.push(rules === "R" ? gettext("Relaxed") + " (" + gettext("Mixed suits") + ")"
      : gettext("Classic") + " (" + gettext("Same suit") + ")");
    return parts.join(" · ");
  }
  const suitText = suits === 1 ? gettext("1 suit") : fmt(gettext("%(n)s suits"), { n: suits });
  parts.push(`${suitText} (${level(suits)})`);
  if (prefix === "SP1" && suits > 1) parts.push(rules === "R" ? gettext("Relaxed") : gettext("Classic"));
  return parts.join(" · ");
}

// A board id and its clean twin ("<board>:clean", only games without an undo).
export function cleanTwin(board) {
  const isClean = /:clean$/i.test(board || "");
  const all = isClean ? board.slice(0, -":clean".length) : board || "";
  return { all, clean: `${all}:clean`, isClean };
}

export function boardLabel(board) {
  if (!board) return "";
  const { all, isClean } = cleanTwin(board);
  const [kind, ...rest] = all.split(":");
  let label;
  if (kind === "daily") {
    const [date, variant] = rest;
    label = fmt(gettext("Daily %(date)s · %(variant)s"), { date, variant: variantLabel(variant) });
  } else {
    const code = rest.join(":");
    label = fmt(gettext("Game %(code)s · %(variant)s"), { code, variant: variantLabel(variantOf(code)) });
  }
  return isClean ? fmt(gettext("%(board)s · clean games"), { board: label }) : label;
}
