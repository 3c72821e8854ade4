// Pointer input on the table (mouse, pen and touch alike): drag a group, tap, double-tap, or tap
// a place (a column, the foundations) that is not a card one may pick up.
// It only reports gestures; the play page decides which token, if any, they mean.
import { sameSource } from "./moves.js";

const THRESHOLD = 6; // pixels before a press becomes a drag
const DOUBLE_MS = 350;

export class Pointer {
  constructor(board, handlers) {
    this.board = board;
    // canDrag(src), onRefused(src), onDragStart(src), onDrop(src, at), onTap(src), onDoubleTap(src),
    // onTapPlace(at): `at` is { col, foundation }, what is under the pointer.
    this.h = handlers;
    this.press = null;
    this.lastTap = null;
    board.root.addEventListener("pointerdown", (e) => this.down(e));
    addEventListener("pointermove", (e) => this.move(e), { passive: false });
    addEventListener("pointerup", (e) => this.up(e));
    addEventListener("pointercancel", () => this.cancel());
  }

  source(target) {
    const card = target.closest(".card.up, .slot[data-empty]");
    if (!card || !this.board.root.contains(card)) return null;
    if (card.dataset.foundation) return { suit: card.dataset.foundation, n: 1, el: card };
    if (!card.dataset.col || card.dataset.empty !== undefined) return null;
    return { col: Number(card.dataset.col), idx: Number(card.dataset.idx), n: Number(card.dataset.n), el: card };
  }

  down(e) {
    if (e.button !== 0 || this.press) return;
    const src = this.source(e.target); // null: a place, not a card to pick up
    this.press = { src, x: e.clientX, y: e.clientY, id: e.pointerId, dragging: false, cards: [] };
  }

  at(e) {
    return { col: this.board.columnAt(e.clientX, e.clientY), foundation: this.board.foundationAt(e.clientX, e.clientY) };
  }

  move(e) {
    const p = this.press;
    if (!p || !p.src || e.pointerId !== p.id) return;
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    if (!p.dragging) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      if (!this.h.canDrag(p.src)) {
        this.press = null;
        if (this.h.onRefused) this.h.onRefused(p.src); // the page asks the server why
        return;
      }
      p.dragging = true;
      p.cards = p.src.suit ? [p.src.el] : this.board.groupCards(p.src.col, p.src.n);
      p.cards.forEach((card) => card.classList.add("dragging"));
      this.h.onDragStart(p.src);
    }
    e.preventDefault();
    for (const card of p.cards) card.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  up(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    this.press = null;
    if (p.dragging) {
      // A sent move leaves the cards where they were dropped: the next drawing animates from there.
      // Anything else (an illegal drop, a drop off the table) snaps back to where it came from.
      const sent = this.h.onDrop(p.src, this.at(e));
      if (!sent) this.release(p.cards, true);
      return;
    }
    if (!p.src) {
      if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < THRESHOLD * 3) this.h.onTapPlace(this.at(e));
      return;
    }
    const now = performance.now();
    const same = this.lastTap && now - this.lastTap.time < DOUBLE_MS && sameSource(this.lastTap.src, p.src);
    if (same) {
      this.lastTap = null;
      this.h.onDoubleTap(p.src);
    } else {
      this.lastTap = { src: p.src, time: now };
      this.h.onTap(p.src);
    }
  }

  cancel() {
    if (this.press && this.press.dragging) {
      this.release(this.press.cards);
      this.h.onDrop(this.press.src, { col: null, foundation: null });
    }
    this.press = null;
  }

  release(cards, animate = false) {
    for (const card of cards) {
      card.classList.remove("dragging");
      if (animate) {
        card.style.transition = "transform 160ms ease-out";
        card.addEventListener("transitionend", () => { card.style.transition = ""; }, { once: true });
      }
      card.style.transform = "";
    }
  }
}
