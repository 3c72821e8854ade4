// Keyboard play. The columns are one tab stop (the card last focused); the arrow keys go from
// column to column (left, right) and up and down a column's face-up cards. Enter or Space picks a
// group up, as a tap does (the page marks it and lights the places it may go), then Enter on
// another column, or that column's number key (0 = column 10), or F for the foundations, sends it
// there; Enter on it again sends it to the best place. D deals; H asks for a hint; Ctrl+Z undoes;
// Esc lets go.
import { sameSource } from "./moves.js";

export class Keyboard {
  constructor(board, h) {
    this.board = board;
    // selected() -> src or null, select(src) -> bool, moveTo(at), best(src), deal(), undo(), hint(), unselect()
    this.h = h;
    this.current = null; // { col, idx } of the card or place that is the columns' tab stop
    board.root.addEventListener("keydown", (e) => this.onTableKey(e));
    board.root.addEventListener("focusin", (e) => {
      if (this.placeOf(e.target)) this.rove(e.target);
    });
    addEventListener("keydown", (e) => this.onGlobalKey(e));
  }

  // A face-up card of a column, or an empty column's place.
  placeOf(node) {
    return node && node.dataset && node.dataset.col && node.closest(".column")
      && (node.classList.contains("up") || node.dataset.empty !== undefined) ? node : null;
  }

  // The cards and places of column `col` that take the focus, top to bottom.
  stops(col) {
    return [...this.board.tableau.querySelectorAll(`.column[data-col="${col}"] .card.up, .column[data-col="${col}"] .slot[data-empty]`)];
  }

  // After each drawing: the card that was the tab stop is again (or its column's last), else column 1's.
  rove(node = null) {
    if (!node && this.current) {
      const { col, idx } = this.current;
      node = this.board.tableau.querySelector(`.column[data-col="${col}"] .card.up[data-idx="${idx}"]`)
        || this.stops(col).pop();
    }
    node = node || this.stops(1).pop();
    if (!node) return;
    for (const other of this.board.tableau.querySelectorAll(".card.up, .slot[data-empty]")) {
      other.tabIndex = other === node ? 0 : -1;
    }
    this.current = { col: node.dataset.col, idx: node.dataset.idx };
  }

  // The tab stop itself, to be focused (the play page's "Skip to the cards" link).
  stop() {
    return this.board.tableau.querySelector('.card.up[tabindex="0"], .slot[data-empty][tabindex="0"]');
  }

  sourceOf(node) {
    if (!node || !node.dataset) return null;
    if (node.dataset.foundation) return { suit: node.dataset.foundation, n: 1 };
    if (node.dataset.col && node.classList.contains("up")) {
      return { col: Number(node.dataset.col), idx: Number(node.dataset.idx), n: Number(node.dataset.n) };
    }
    return null;
  }

  // Arrows: the next column's last card (left, right; Home, End: the first and last columns),
  // or the card above or below in this column.
  step(node, key) {
    const col = Number(node.dataset.col);
    const count = this.board.columns.length;
    let target = null;
    if (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End") {
      const to = { ArrowLeft: col - 1, ArrowRight: col + 1, Home: 1, End: count }[key];
      if (to >= 1 && to <= count) target = this.stops(to).pop();
    } else {
      const mine = this.stops(col);
      target = mine[mine.indexOf(node) + (key === "ArrowUp" ? -1 : 1)];
    }
    if (target) target.focus();
  }

  onTableKey(e) {
    const node = e.target;
    if (this.placeOf(node) && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(e.key)) {
      e.preventDefault();
      this.step(node, e.key);
      return;
    }
    if (e.key !== "Enter" && e.key !== " ") return;
    if (node.closest && node.closest(".stock")) return; // the stock is a button
    const src = this.sourceOf(node);
    const col = node.dataset && node.dataset.col ? Number(node.dataset.col) : null;
    const onFoundations = node.closest && node.closest("[data-foundations]") && !node.dataset.foundation;
    e.preventDefault();
    const sel = this.h.selected();
    if (!sel) {
      if (src) this.h.select(src);
    } else if (src && sameSource(src, sel)) {
      this.h.unselect();
      this.h.best(sel);
    } else if (col && col !== sel.col) {
      this.h.moveTo({ col, foundation: null });
    } else if (onFoundations || (src && src.suit && !sel.suit)) {
      this.h.moveTo({ col: null, foundation: "any" });
    } else if (src) {
      this.h.select(src);
    } else {
      this.h.unselect();
    }
  }

  onGlobalKey(e) {
    const typing = e.target.closest && e.target.closest("input, select, textarea, dialog");
    if (typing) return;
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z") {
      e.preventDefault();
      this.h.undo();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const sel = this.h.selected();
    if (e.key === "Escape" && sel) {
      this.h.unselect();
    } else if (/^[0-9]$/.test(e.key) && sel) {
      this.h.moveTo({ col: e.key === "0" ? 10 : Number(e.key), foundation: null });
    } else if ((e.key === "f" || e.key === "F") && sel) {
      this.h.moveTo({ col: null, foundation: "any" });
    } else if (e.key === "d" || e.key === "D") {
      this.h.deal();
    } else if (e.key === "h" || e.key === "H") {
      this.h.hint();
    }
  }
}
