// Cards: the project's SVG deck (scripts/draw_cards.py) as images inside plain elements.
// A face-up card is named by its image's alt text; the view never decides anything about play.
import { gettext, fmt } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RED = new Set(["H", "D"]);
export const BACKS = ["blue", "red", "green"];

const DECK = new URL("../cards/", import.meta.url);
const RANK_LABEL = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };

// How faces are drawn now: the board picks the design from the card size, the player the colours.
const look = { design: "full", colours: "two" };

export function setLook({ design = look.design, fourColour = look.colours === "four" } = {}) {
  look.design = design;
  look.colours = fourColour ? "four" : "two";
}

export function faceUrl(card) {
  return new URL(`${look.design}-${look.colours}/${card}.svg`, DECK).href;
}

// Points every drawn face at the current design and colours, without drawing the table again.
export function refreshFaces(root) {
  for (const img of root.querySelectorAll("img[data-face]")) {
    const url = faceUrl(img.dataset.face);
    if (img.src !== url) img.src = url;
  }
}

function rankNames() {
  return {
    A: gettext("ace"), 2: gettext("two"), 3: gettext("three"), 4: gettext("four"),
    5: gettext("five"), 6: gettext("six"), 7: gettext("seven"), 8: gettext("eight"),
    9: gettext("nine"), T: gettext("ten"), J: gettext("jack"), Q: gettext("queen"), K: gettext("king"),
  };
}

function suitNames() {
  return { S: gettext("spades"), H: gettext("hearts"), D: gettext("diamonds"), C: gettext("clubs") };
}

export function rankLabel(card) {
  return RANK_LABEL[card[0]] || card[0];
}

// "ten of spades" in the page's language.
export function cardName(card) {
  return fmt(gettext("%(rank)s of %(suit)s"), { rank: rankNames()[card[0]], suit: suitNames()[card[1]] });
}

export function suitName(suit) {
  return suitNames()[suit];
}

function face(card, alt) {
  const img = document.createElement("img");
  img.className = "face";
  img.dataset.face = card;
  img.src = faceUrl(card);
  img.alt = alt;
  img.draggable = false;
  img.decoding = "sync"; // a redrawn table shows its cards in the same frame
  return img;
}

export function faceUp(card, { label = cardName(card) } = {}) {
  const node = document.createElement("div");
  node.className = `card up ${RED.has(card[1]) ? "red" : "black"}`;
  node.dataset.card = card;
  node.append(face(card, label));
  return node;
}

// A face-down card shows the chosen back (drawn by CSS); the column's label counts these cards.
// The replay viewer knows face-down cards too: it shows their faces, dimmed, with their names.
export function faceDown(card = null) {
  const node = document.createElement("div");
  node.className = "card down";
  if (card) {
    node.classList.add("known");
    node.dataset.card = card;
    node.append(face(card, fmt(gettext("face-down: %(card)s"), { card: cardName(card) })));
  } else {
    node.setAttribute("aria-hidden", "true");
  }
  return node;
}

// An empty place on the table; `label` makes it something a player can reach and name.
export function emptySlot(label = "", symbol = "") {
  const node = document.createElement("div");
  node.className = "slot";
  if (label) {
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", label);
  }
  if (symbol) node.innerHTML = `<span aria-hidden="true">${symbol}</span>`;
  return node;
}

// The chosen back, for every face-down card on the page (cards.css reads html[data-back]).
export function setBack(name) {
  document.documentElement.dataset.back = BACKS.includes(name) ? name : BACKS[0];
}
