// Keyboard play: Tab to a card, Enter or Space picks its group up (the targets light up),
// Enter on another column or its number key (0 = column 10) puts it there, Enter twice on the
// same card sends it to the best place; D deals; Ctrl+Z undoes; Esc lets go.
export class Keyboard {
  constructor(board, h) {
    this.board = board;
    this.h = h; // canDrag(src), select(src) -> bool, drop(src, at), best(src), deal(), undo(), cancel()
    this.selected = null;
    board.root.addEventListener("keydown", (e) => this.onTableKey(e));
    addEventListener("keydown", (e) => this.onGlobalKey(e));
  }

  sourceOf(node) {
    if (!node || !node.dataset) return null;
    if (node.dataset.foundation) return { suit: node.dataset.foundation, n: 1 };
    if (node.dataset.col && node.classList.contains("up")) {
      return { col: Number(node.dataset.col), idx: Number(node.dataset.idx), n: Number(node.dataset.n) };
    }
    return null;
  }

  onTableKey(e) {
    const node = e.target;
    if (e.key === "Enter" || e.key === " ") {
      const src = this.sourceOf(node);
      const col = node.dataset && node.dataset.col ? Number(node.dataset.col) : null;
      const onFoundations = node.closest && node.closest("[data-foundations]") && !node.dataset.foundation;
      if (node.closest && node.closest(".stock")) return; // the stock is a button
      e.preventDefault();
      if (this.selected) {
        const sel = this.selected;
        if (src && sameSource(src, sel)) {
          this.clear();
          this.h.best(sel);
        } else if (col && col !== sel.col) {
          this.clear();
          this.h.drop(sel, { col, foundation: null });
        } else if (onFoundations) {
          this.clear();
          this.h.drop(sel, { col: null, foundation: "any" });
        } else if (src) {
          this.clear();
          this.pick(src);
        } else {
          this.clear();
        }
      } else if (src) {
        this.pick(src);
      }
    }
  }

  pick(src) {
    if (this.h.select(src)) this.selected = src;
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
    if (e.key === "Escape" && this.selected) {
      this.clear();
    } else if (/^[0-9]$/.test(e.key) && this.selected) {
      const col = e.key === "0" ? 10 : Number(e.key);
      const sel = this.selected;
      this.clear();
      this.h.drop(sel, { col, foundation: null });
    } else if ((e.key === "f" || e.key === "F") && this.selected) {
      const sel = this.selected;
      this.clear();
      this.h.drop(sel, { col: null, foundation: "any" });
    } else if (e.key === "d" || e.key === "D") {
      this.h.deal();
    }
  }

  clear() {
    this.selected = null;
    this.h.cancel();
  }
}

function sameSource(a, b) {
  return a.suit ? a.suit === b.suit : a.col === b.col && a.idx === b.idx;
}
