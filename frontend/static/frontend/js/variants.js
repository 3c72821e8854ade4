// The games and variants, as the server's engine lists them (GET /api/variants), named in the
// page's language. The browser holds no rules: which choices exist, what each variant is called
// and which ones have a daily all come from there. A variant is a game code without its deal letters.
import { get } from "./api.js";
import { gettext, fmt } from "./i18n.js";
import { dayName } from "./ui.js";

async function load() {
  try {
    return await get("/api/variants");
  } catch {
    return { games: [], variants: [], daily: [] }; // names fall back to the variant ids
  }
}

export const catalogue = await load();
const byId = new Map(catalogue.variants.map((v) => [v.id, v]));

export const DAILY_VARIANTS = catalogue.daily;

export function variantOf(code) {
  return code ? code.split("-").slice(0, 2).join("-").toUpperCase() : null;
}

export function variantInfo(variant) {
  return byId.get(variant) || null;
}

// "Spider · 2 suits (Medium) · Relaxed"
export function variantLabel(variant) {
  const found = byId.get(variant);
  return found ? found.name : variant || "";
}

function gameEntry(variant) {
  const found = byId.get(variant);
  return (found && catalogue.games.find((g) => g.prefix === found.game)) || null;
}

export function gameOf(variant) {
  const game = gameEntry(variant);
  return game ? game.name : "";
}

// What a win of the variant counts, named as results name it: "sequences" or "cards_home".
export function goalOf(variant) {
  const game = gameEntry(variant);
  return game ? game.goal : "sequences";
}

// The variant a picker's choices make: the game, then its suits and rule where the game offers a choice.
export function findVariant({ game, suits, rule }) {
  const mine = catalogue.variants.filter((v) => v.game === game);
  const withSuits = mine.filter((v) => v.suits === suits);
  const pool = withSuits.length ? withSuits : mine;
  const found = pool.find((v) => v.rule === rule) || pool[0];
  return found ? found.id : null;
}

// Whether the game offers a choice of suits, and of rules with the suits chosen.
export function choicesOf(game, suits) {
  const mine = catalogue.variants.filter((v) => v.game === game);
  const withSuits = mine.filter((v) => v.suits === suits);
  return {
    suits: new Set(mine.map((v) => v.suits)).size > 1,
    rules: new Set((withSuits.length ? withSuits : mine).map((v) => v.rule)).size > 1,
  };
}

// A board id and its clean twin ("<board>:clean", only games without an undo or a hint).
export function cleanTwin(board) {
  const isClean = /:clean$/i.test(board || "");
  const all = isClean ? board.slice(0, -":clean".length) : board || "";
  return { all, clean: `${all}:clean`, isClean };
}

// A board id in words: "Daily challenge, 1 December 2026 · Spider · 1 suit (Easy)", and its clean
// twin "... · clean games".
export function boardLabel(board) {
  if (!board) return "";
  const { all, isClean } = cleanTwin(board);
  const [kind, ...rest] = all.split(":");
  const variant = boardVariant(board);
  const label = kind === "daily"
    ? fmt(gettext("Daily challenge, %(date)s · %(variant)s"), { date: dayName(rest[0]), variant: variantLabel(variant) })
    : fmt(gettext("Game %(code)s · %(variant)s"), { code: rest.join(":"), variant: variantLabel(variant) });
  return isClean ? fmt(gettext("%(board)s · clean games"), { board: label }) : label;
}

// The variant a board ranks: "daily:<date>:<variant>" or "code:<code>", either maybe ":clean".
export function boardVariant(board) {
  const [kind, ...rest] = cleanTwin(board).all.split(":");
  return kind === "daily" ? rest[1] : variantOf(rest.join(":"));
}

// A game's name from its prefix ("SP" -> "Spider"), as the server names it.
// A game's name from its two letters ("SD"), as ratings name games; a game's prefix carries its suits too ("SD1").
export function gameName(letters) {
  const game = catalogue.games.find((g) => g.prefix.slice(0, 2) === letters);
  return game ? game.name : letters;
}
