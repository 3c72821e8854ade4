// Cards drawn by the project: a card is a <div> with its corner index and a large suit sign.
// The view never decides anything about play; it only draws what the server sent.
import { gettext, fmt } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RED = new Set(["H", "D"]);

const RANK_LABEL = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };

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

export function faceUp(card) {
  const suit = card[1];
  const node = document.createElement("div");
  node.className = `card up ${RED.has(suit) ? "red" : "black"}`;
  node.dataset.card = card;
  named(node, cardName(card));
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  corner.innerHTML = `<b>${rankLabel(card)}</b><i>${SUIT_SYMBOL[suit]}</i>`;
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = "JQK".includes(card[0]) ? card[0] : SUIT_SYMBOL[suit];
  if ("JQK".includes(card[0])) pip.classList.add("face");
  node.append(corner, pip);
  return node;
}

export function faceDown(card = null) {
  const node = document.createElement("div");
  node.className = "card down";
  named(node, gettext("face-down card"));
  if (card) {
    // The replay viewer shows the whole deal: a face-down card that we know.
    node.classList.add("known", RED.has(card[1]) ? "red" : "black");
    node.dataset.card = card;
    named(node, fmt(gettext("face-down: %(card)s"), { card: cardName(card) }));
    node.innerHTML = `<span class="corner" aria-hidden="true"><b>${rankLabel(card)}</b><i>${SUIT_SYMBOL[card[1]]}</i></span>`;
  }
  return node;
}

export function emptySlot(label, symbol = "") {
  const node = document.createElement("div");
  node.className = "slot";
  if (label) named(node, label);
  if (symbol) node.innerHTML = `<span aria-hidden="true">${symbol}</span>`;
  return node;
}

// Accessibility (axe): a card or slot shown, not pressed, is an image with its name; one the player
// can press becomes a button named by its content, so its name and what is seen never disagree.
export function named(node, label) {
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", label);
}

export function unnamed(node) {
  node.removeAttribute("role");
  node.removeAttribute("aria-label");
}

export function pressable(node) {
  const label = node.getAttribute("aria-label") || "";
  node.removeAttribute("aria-label");
  node.setAttribute("role", "button");
  node.tabIndex = 0;
  const name = document.createElement("span");
  name.className = "visually-hidden";
  name.textContent = label;
  node.append(name);
}
