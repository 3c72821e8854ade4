// The table view: stock, removed sequences or foundations, and the tableau columns.
// It draws a view document (docs/state.md) and sizes the cards from the space the table has.
// It knows nothing of the rules: what may move comes from the server's legal list, and the
// counts it draws (deals left, sequences to remove) from the session document's `table`.
import { faceUp, faceDown, emptySlot, SUIT_SYMBOL, suitName, cardName, setLook, refreshFaces } from "./cards.js";
import { gettext, ngettext, fmt } from "./i18n.js";

const SUITS = ["S", "H", "D", "C"];
const RATIO = 1.4; // a card's height over its width
// Fan offsets as parts of a card's height: comfortable, still readable (the corner index shows), last resort.
const FAN = { up: 0.28, upMax: 0.62, upMin: 0.19, down: 0.12, downMin: 0.05 };
// (upMax: a tall narrow screen fans wider, which makes each card of a group easier to grab.)
// Cards are sized so that a column of 5 face-down and 12 face-up cards fits at readable fans;
// a longer column makes them smaller only when fanning tighter no longer fits it.
const DESIGN_DOWN = 5;
const DESIGN_UP = 12;
const MAX_W = 160;
const MIN_W = 22;
const COMPACT_BELOW = 72; // narrower cards use the jumbo-index faces
const REMOVED_FAN = 0.17; // removed sequences stacked in the side rail show their top index
// A tall narrow screen (a phone held upright) has height to spare and too little width for many
// columns: the cards grow wider than a column's pitch and overlap like shingles, each showing its
// left part, where the compact faces carry their jumbo index (the widest, a ten, ends at 0.74).
const SHINGLE_SHOWS = 0.77; // the part of a card's width left uncovered by the next column
const SHINGLE_GAIN = 1.15; // worth overlapping only for cards this much bigger
const SHINGLE_GAP = 2; // pixels between the columns' own boxes (where a tap or a drop lands)

export class Board {
  constructor(root) {
    this.root = root;
    this.top = root.querySelector(".table-top");
    this.tableau = root.querySelector("[data-tableau]");
    this.stockBox = root.querySelector("[data-stock-area]");
    this.removedBox = root.querySelector("[data-removed]");
    this.foundationsBox = root.querySelector("[data-foundations]");
    this.view = null;
    this.table = null;
    this.columns = [];
    this.measured = "";
    new ResizeObserver(() => this.layout()).observe(root);
    addEventListener("resize", () => this.layout());
  }

  // `table` is the session document's counts: columns, deals, deals_left, sequences, foundations.
  render(view, { table, known = false } = {}) {
    this.view = view;
    this.table = table;
    this.known = known;
    this.renderStock(table.deals_left);
    this.renderRemoved(view, table.sequences);
    this.renderFoundations(view);
    this.renderTableau(view);
    this.measured = "";
    this.layout();
  }

  renderStock(deals) {
    if (!this.stockBox) return;
    this.stockBox.replaceChildren();
    this.stockBox.hidden = !this.table.deals;
    if (!this.table.deals) return; // Russian Solitaire has no stock
    const label = deals
      ? fmt(ngettext("Deal (%(n)s deal left)", "Deal (%(n)s deals left)", deals), { n: deals })
      : gettext("The stock is empty");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "stock";
    button.dataset.stock = "";
    const name = document.createElement("span");
    name.className = "visually-hidden";
    name.textContent = label; // named by its content, which holds the count it shows (axe)
    button.append(name);
    button.title = label;
    button.disabled = deals === 0;
    for (let i = 0; i < deals; i++) {
      const back = faceDown();
      back.style.setProperty("--i", i);
      button.append(back);
    }
    if (!deals) button.append(emptySlot());
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
    this.removedBox.hidden = !sequences;
    if (!sequences) return;
    const removed = view.removed || [];
    this.removedBox.setAttribute(
      "aria-label",
      fmt(gettext("Sequences removed: %(done)s of %(all)s"), { done: removed.length, all: sequences }),
    );
    for (let i = 0; i < sequences; i++) {
      const suit = removed[i];
      const pile = suit
        ? faceUp(`K${suit}`, { label: fmt(gettext("a sequence of %(suit)s"), { suit: suitName(suit) }) })
        : emptySlot();
      pile.classList.add("removed-pile");
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
        top.tabIndex = 0;
        top.setAttribute("role", "button");
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
      // The column's number on screen, for the number keys (the group's name says it to a screen reader).
      const number = document.createElement("span");
      number.className = "col-number";
      number.setAttribute("aria-hidden", "true");
      number.textContent = String(col);
      box.append(number);
      const down = Array.isArray(column.down) ? column.down : Array(column.down).fill(null);
      const cards = [];
      down.forEach((card) => cards.push(faceDown(this.known ? card : null)));
      column.up.forEach((card) => cards.push(faceUp(card)));
      const total = cards.length;
      box.setAttribute("aria-label", this.columnLabel(col, down.length, column.up));
      if (!total) {
        const slot = emptySlot(fmt(gettext("Column %(n)s, empty"), { n: col }));
        slot.tabIndex = -1; // one card or place of the columns is a tab stop (keyboard.js)
        slot.dataset.col = col;
        slot.dataset.empty = "";
        box.append(slot);
      }
      cards.forEach((card, i) => {
        card.dataset.col = col;
        card.dataset.idx = i;
        card.dataset.n = total - i;
        if (card.classList.contains("up")) {
          card.tabIndex = -1;
          card.setAttribute("role", "button");
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

  // The space the table may fill: its own box on the play page (a flex item sized by the page),
  // else from its top to the bottom of the window.
  space() {
    const width = this.root.clientWidth;
    const fills = parseFloat(getComputedStyle(this.root).flexGrow) > 0;
    const height = fills ? this.root.clientHeight : Math.max(320, innerHeight - this.root.getBoundingClientRect().top - 12);
    return { width, height };
  }

  // How many card heights the longest column needs at readable fans (at least the design column).
  need() {
    let need = 1 + DESIGN_DOWN * FAN.downMin + (DESIGN_UP - 1) * FAN.upMin;
    for (const column of this.columns) {
      const ups = column.cards.length - column.down;
      need = Math.max(need, 1 + column.down * FAN.downMin + Math.max(0, ups - 1) * FAN.upMin);
    }
    return need;
  }

  // Card sizes from the width and the height: the stock and removed row above the columns, or
  // (when that gives bigger cards, as on a phone held sideways) in a rail beside them; on a tall
  // narrow screen, cards wider than the columns' pitch, overlapping (SHINGLE_SHOWS).
  layout() {
    if (!this.view || !this.root.isConnected) return;
    const { width, height } = this.space();
    if (!width || !height) return;
    const key = `${width}x${height}`;
    if (key === this.measured) return;
    this.measured = key;
    const n = this.view.columns.length;
    const gap = Math.max(2, Math.min(14, Math.round(Math.min(width, height * 1.6) * 0.008)));
    const rowGap = Math.round(gap * 1.5);
    const label = Math.round(Math.min(16, Math.max(12, height * 0.018))); // the columns' numbers
    const need = this.need();
    const russian = this.table.foundations > 0;
    const railCards = russian ? 1 + 3 * 0.32 : 2 + (this.table.sequences - 1) * REMOVED_FAN;
    const byHeight = (height - rowGap - label) / (1 + need) / RATIO;
    const byTop = Math.min((width - gap * (n - 1)) / n, byHeight);
    const byRail = Math.min(
      (width - gap * n) / (n + (russian ? 1 : 1.25)),
      (height - label) / need / RATIO,
      (height - gap) / railCards / RATIO,
    );
    const byShingle = Math.min(width / ((n - 1) * SHINGLE_SHOWS + 1), byHeight);
    const rail = byRail > byTop * 1.08 && byRail >= byShingle;
    const shingle = !rail && byShingle > byTop * SHINGLE_GAIN;
    const cardW = Math.floor(Math.max(MIN_W, Math.min(MAX_W, rail ? byRail : shingle ? byShingle : byTop)));
    const cardH = Math.round(cardW * RATIO);
    // The distance from one column to the next, and the width of a column's own box.
    const pitch = shingle ? (width - cardW) / (n - 1) : cardW + gap;
    const colGap = shingle ? SHINGLE_GAP : gap;
    const colW = pitch - colGap;
    this.root.classList.toggle("rail", rail);
    this.root.classList.toggle("shingle", shingle);
    this.root.style.setProperty("--card-w", `${cardW}px`);
    this.root.style.setProperty("--card-h", `${cardH}px`);
    this.root.style.setProperty("--gap", `${gap}px`);
    this.root.style.setProperty("--col-w", `${colW}px`);
    this.root.style.setProperty("--col-gap", `${colGap}px`);
    this.root.style.setProperty("--label-h", `${label}px`);
    this.label = label;
    const tableauW = Math.floor((n - 1) * pitch + cardW);
    const railW = Math.round(cardW * (russian ? 1 : 1.25));
    this.root.style.setProperty("--tableau-w", `${tableauW}px`);
    this.root.style.setProperty("--overhang", `${Math.max(0, tableauW - (n * colW + (n - 1) * colGap))}px`);
    this.root.style.setProperty("--rail-w", `${railW}px`);
    // Overlapped cards show only their left part: the jumbo index is there on the compact faces.
    const design = cardW < COMPACT_BELOW || shingle ? "compact" : "full";
    if (design !== this.design) {
      this.design = design;
      setLook({ design });
      refreshFaces(this.root);
    }
    this.placeTop({ rail, cardW, cardH, gap, height, pitch });
    const room = (rail ? height : height - cardH - rowGap) - label;
    this.fan({ room, cardH });
  }

  // Removed sequences over the last columns (or stacked in the rail); foundations likewise.
  placeTop({ rail, cardW, cardH, gap, height, pitch }) {
    const place = (nodes, box) => {
      const count = nodes.length;
      if (!count) return;
      const step = rail
        ? Math.min(cardH + gap, Math.max(cardH * REMOVED_FAN, (height - 2 * cardH - gap) / Math.max(1, count - 1)))
        : pitch;
      nodes.forEach((node, i) => {
        node.style.left = rail ? "0px" : `${i * step}px`;
        node.style.top = rail ? `${i * step}px` : "0px";
        node.style.zIndex = String(i + 1);
      });
      box.style.width = rail ? `${cardW}px` : `${(count - 1) * step + cardW}px`;
      box.style.height = rail ? `${(count - 1) * step + cardH}px` : `${cardH}px`;
    };
    if (this.removedBox && !this.removedBox.hidden) place([...this.removedBox.children], this.removedBox);
    if (this.foundationsBox && !this.foundationsBox.hidden) {
      const railStep = Math.min(cardH + gap, (height - cardH) / 3);
      [...this.foundationsBox.children].forEach((node, i) => {
        node.style.left = rail ? "0px" : `${i * pitch}px`;
        node.style.top = rail ? `${i * railStep}px` : "0px";
      });
      this.foundationsBox.style.width = rail ? `${cardW}px` : `${3 * pitch + cardW}px`;
      this.foundationsBox.style.height = rail ? `${3 * railStep + cardH}px` : `${cardH}px`;
    }
  }

  // Fan each column to fit the room: comfortable offsets, then tighter (face-up cards down to
  // where their corner index still shows, then face-down ones), then whatever fits.
  fan({ room, cardH }) {
    const downBase = Math.round(cardH * (this.known ? FAN.up : FAN.down));
    const design = (room - cardH - DESIGN_DOWN * downBase) / (DESIGN_UP - 1);
    const upBase = Math.round(Math.max(cardH * FAN.up, Math.min(cardH * FAN.upMax, design)));
    let tallest = cardH;
    for (const column of this.columns) {
      const total = column.cards.length;
      const downs = Math.min(column.down, Math.max(0, total - 1)); // offsets below face-down cards
      const ups = Math.max(0, total - 1 - downs);
      let down = downBase;
      let up = upBase;
      const height = () => cardH + downs * down + ups * up;
      if (height() > room && ups) up = Math.max(cardH * FAN.upMin, (room - cardH - downs * down) / ups);
      if (height() > room && downs) {
        down = Math.max(cardH * (this.known ? FAN.upMin : FAN.downMin), (room - cardH - ups * up) / downs);
      }
      if (height() > room) {
        const squeeze = (room - cardH) / (height() - cardH);
        up *= squeeze;
        down *= squeeze;
      }
      let y = 0;
      column.cards.forEach((card, i) => {
        card.style.top = `${Math.round(y)}px`;
        card.style.zIndex = String(i + 1);
        y += i < column.down ? down : up;
      });
      column.box.style.height = `${Math.round(height())}px`;
      tallest = Math.max(tallest, height());
    }
    this.tableau.style.height = `${Math.ceil(tallest)}px`;
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
    const removed = this.view && this.view.removed ? this.view.removed.length : 0;
    return { cards: shot, stock: stock ? stock.getBoundingClientRect() : null, removed };
  }

  // The column at a point: its box, from its number above it down to the bottom of the table.
  columnAt(x, y) {
    const above = Math.max(8, this.label || 0);
    const bottom = this.root.getBoundingClientRect().bottom;
    for (const column of this.columns) {
      const rect = column.box.getBoundingClientRect();
      if (x >= rect.left - 2 && x <= rect.right + 2 && y >= rect.top - above && y <= bottom) {
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
