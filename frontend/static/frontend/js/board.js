// The table view: stock, removed sequences or foundations, and the tableau columns.
// It draws a view document (SPEC section 5) and lays the fans out to fit the screen.
// It knows nothing of the rules: what may move comes from the server's legal list.
import { faceUp, faceDown, emptySlot, named, unnamed, pressable, SUIT_SYMBOL, suitName, cardName } from "./cards.js";
import { gettext, ngettext, fmt } from "./i18n.js";

const SUITS = ["S", "H", "D", "C"];

export class Board {
  constructor(root) {
    this.root = root;
    this.tableau = root.querySelector("[data-tableau]");
    this.stockBox = root.querySelector("[data-stock-area]");
    this.removedBox = root.querySelector("[data-removed]");
    this.foundationsBox = root.querySelector("[data-foundations]");
    this.view = null;
    this.columns = [];
    addEventListener("resize", () => this.layout());
  }

  // `deals` and `sequences` are the server's counts (the session's or replay's `table`).
  render(view, { deals = 0, known = false, sequences = 8 } = {}) {
    this.view = view;
    this.known = known;
    this.renderStock(view, deals);
    this.renderRemoved(view, sequences);
    this.renderFoundations(view);
    this.renderTableau(view);
    this.layout();
  }

  renderStock(view, deals) {
    if (!this.stockBox) return;
    this.stockBox.replaceChildren();
    if (view.foundations) return; // Russian Solitaire has no stock
    const label = deals
      ? fmt(ngettext("Deal (%(n)s deal left)", "Deal (%(n)s deals left)", deals), { n: deals })
      : gettext("The stock is empty");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "stock";
    button.dataset.stock = "";
    const name = document.createElement("span");
    name.className = "visually-hidden";
    name.textContent = label; // the button's name is its content: it holds the visible count too
    button.append(name);
    button.title = label;
    button.disabled = deals === 0;
    for (let i = 0; i < Math.max(deals, 0); i++) {
      const back = faceDown();
      unnamed(back);
      back.style.setProperty("--i", i);
      button.append(back);
    }
    if (!deals) button.append(emptySlot(""));
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.setAttribute("aria-hidden", "true");
    badge.textContent = String(deals);
    badge.hidden = deals === 0;
    button.append(badge);
    this.stockBox.append(button);
  }

  renderRemoved(view, sequences) {
    if (!this.removedBox) return;
    this.removedBox.replaceChildren();
    this.removedBox.hidden = Boolean(view.foundations);
    if (view.foundations) return;
    const removed = view.removed || [];
    this.removedBox.setAttribute(
      "aria-label",
      fmt(gettext("Sequences removed: %(done)s of %(all)s"), { done: removed.length, all: sequences }),
    );
    for (let i = 0; i < sequences; i++) {
      const suit = removed[i];
      const pile = suit ? faceUp(`K${suit}`) : emptySlot("");
      pile.classList.add("removed-pile");
      if (suit) named(pile, fmt(gettext("a sequence of %(suit)s"), { suit: suitName(suit) }));
      else unnamed(pile);
      this.removedBox.append(pile);
    }
  }

  renderFoundations(view) {
    if (!this.foundationsBox) return;
    this.foundationsBox.replaceChildren();
    this.foundationsBox.hidden = !view.foundations;
    if (!view.foundations) return;
    for (const suit of SUITS) {
      const pile = view.foundations[suit] || [];
      const box = document.createElement("div");
      box.className = "foundation";
      box.dataset.suit = suit;
      box.setAttribute("role", "group");
      box.setAttribute(
        "aria-label",
        fmt(gettext("%(suit)s foundation, %(n)s cards"), { suit: suitName(suit), n: pile.length }),
      );
      box.append(emptySlot("", SUIT_SYMBOL[suit]));
      if (pile.length > 1) box.append(faceUp(pile[pile.length - 2]));
      if (pile.length) {
        const top = faceUp(pile[pile.length - 1]);
        top.dataset.foundation = suit;
        pressable(top);
        box.append(top);
      }
      this.foundationsBox.append(box);
    }
  }

  renderTableau(view) {
    this.tableau.replaceChildren();
    this.tableau.style.setProperty("--cols", view.columns.length);
    this.columns = view.columns.map((column, c) => {
      const col = c + 1;
      const box = document.createElement("div");
      box.className = "column";
      box.dataset.col = col;
      box.setAttribute("role", "group");
      const down = Array.isArray(column.down) ? column.down : Array(column.down).fill(null);
      const cards = [];
      down.forEach((card) => cards.push(faceDown(this.known ? card : null)));
      column.up.forEach((card) => cards.push(faceUp(card)));
      const total = cards.length;
      box.setAttribute("aria-label", this.columnLabel(col, down.length, column.up));
      if (!total) {
        const slot = emptySlot(fmt(gettext("Column %(n)s, empty"), { n: col }));
        pressable(slot);
        slot.dataset.col = col;
        slot.dataset.empty = "";
        box.append(slot);
      }
      cards.forEach((card, i) => {
        card.dataset.col = col;
        card.dataset.idx = i;
        card.dataset.n = total - i;
        if (card.classList.contains("up")) {
          pressable(card);
        }
        box.append(card);
      });
      this.tableau.append(box);
      return { box, cards, down: down.length };
    });
  }

  columnLabel(col, down, up) {
    const parts = [fmt(gettext("Column %(n)s"), { n: col })];
    if (down) parts.push(fmt(ngettext("%(n)s face-down card", "%(n)s face-down cards", down), { n: down }));
    if (up.length) parts.push(fmt(gettext("top card %(card)s"), { card: cardName(up[up.length - 1]) }));
    if (!down && !up.length) parts.push(gettext("empty"));
    return parts.join(", ");
  }

  // Sizes follow the width: 10 Spider columns fit a 375px screen. Fans shrink to fit the height.
  layout() {
    if (!this.view) return;
    const n = this.view.columns.length;
    const width = this.tableau.clientWidth || this.root.clientWidth;
    const gap = Math.max(2, Math.min(12, Math.round(width * 0.008)));
    const cardW = Math.max(26, Math.min(104, Math.floor((width - gap * (n - 1)) / n)));
    const cardH = Math.round(cardW * 1.4);
    this.root.style.setProperty("--card-w", `${cardW}px`);
    this.root.style.setProperty("--card-h", `${cardH}px`);
    this.root.style.setProperty("--gap", `${gap}px`);
    const top = this.tableau.getBoundingClientRect().top + scrollY;
    const room = Math.max(cardH * 4, innerHeight - top - 16);
    const baseUp = Math.max(15, Math.round(cardH * 0.27));
    // Known face-down cards (the replay) fan out like face-up ones so they can be read.
    const baseDown = this.known ? baseUp : Math.max(4, Math.round(cardH * 0.1));
    const minUp = Math.max(12, Math.round(cardH * 0.18));
    let tallest = cardH;
    for (const column of this.columns) {
      const ups = column.cards.length - column.down;
      let downOff = baseDown;
      let upOff = baseUp;
      const height = () => column.down * downOff + Math.max(0, ups - 1) * upOff + cardH;
      if (height() > room && ups > 1) {
        upOff = Math.max(minUp, Math.floor((room - cardH - column.down * downOff) / (ups - 1)));
      }
      if (height() > room && column.down) downOff = Math.max(2, Math.floor(baseDown / 2));
      let y = 0;
      column.cards.forEach((card, i) => {
        card.style.top = `${y}px`;
        card.style.zIndex = String(i + 1);
        y += i < column.down ? downOff : upOff;
      });
      column.box.style.height = `${height()}px`;
      tallest = Math.max(tallest, height());
    }
    this.tableau.style.minHeight = `${tallest + 8}px`;
  }

  // Where each card is on screen now, for the move animation.
  snapshot() {
    const shot = [];
    for (const node of this.root.querySelectorAll(".card")) {
      if (node.closest(".stock") || node.classList.contains("removed-pile")) continue;
      const rect = node.getBoundingClientRect();
      shot.push({
        card: node.dataset.card || null,
        key: node.dataset.foundation ? `F${node.dataset.foundation}` : `${node.dataset.col}:${node.dataset.idx}`,
        up: node.classList.contains("up"),
        rect,
      });
    }
    const stock = this.root.querySelector(".stock");
    return { cards: shot, stock: stock ? stock.getBoundingClientRect() : null };
  }

  columnAt(x, y) {
    for (const column of this.columns) {
      const rect = column.box.getBoundingClientRect();
      const bottom = Math.max(rect.bottom, this.tableau.getBoundingClientRect().bottom);
      if (x >= rect.left - 2 && x <= rect.right + 2 && y >= rect.top - 8 && y <= bottom) {
        return Number(column.box.dataset.col);
      }
    }
    return null;
  }

  foundationAt(x, y) {
    if (!this.foundationsBox || this.foundationsBox.hidden) return null;
    const rect = this.foundationsBox.getBoundingClientRect();
    if (x < rect.left || x > rect.right || y < rect.top || y > rect.bottom) return null;
    for (const box of this.foundationsBox.querySelectorAll(".foundation")) {
      const r = box.getBoundingClientRect();
      if (x >= r.left && x <= r.right) return box.dataset.suit;
    }
    return "any";
  }

  groupCards(col, n) {
    const column = this.columns[col - 1];
    return column ? column.cards.slice(column.cards.length - n) : [];
  }

  highlight(cols, foundation = false) {
    for (const column of this.columns) {
      column.box.classList.toggle("target", cols.includes(Number(column.box.dataset.col)));
    }
    if (this.foundationsBox) this.foundationsBox.classList.toggle("target", foundation);
  }
}
