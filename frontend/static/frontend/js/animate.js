// Move animation by FLIP: remember where cards were, draw the new state, then slide each
// card from its old place to its new one. A card that was face-down and is now face-up turns over.
const MS = 200;

export function animateFrom(before, board, { fromStock = false } = {}) {
  if (!before || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const after = [...board.root.querySelectorAll(".card")].filter(
    (n) => !n.closest(".stock") && !n.classList.contains("removed-pile"),
  );
  const keyOf = (n) => (n.dataset.foundation ? `F${n.dataset.foundation}` : `${n.dataset.col}:${n.dataset.idx}`);
  const unused = new Set(before.cards.map((_, i) => i));
  const match = new Map();
  // First the cards that stayed put, then the same card anywhere else (two decks have twins).
  for (const node of after) {
    const i = before.cards.findIndex((c, j) => unused.has(j) && c.key === keyOf(node) && c.card === (node.dataset.card || null));
    if (i >= 0) { unused.delete(i); match.set(node, before.cards[i]); }
  }
  for (const node of after) {
    if (match.has(node) || !node.dataset.card) continue;
    const i = before.cards.findIndex((c, j) => unused.has(j) && c.card === node.dataset.card);
    if (i >= 0) { unused.delete(i); match.set(node, before.cards[i]); }
  }
  for (const node of after) {
    const old = match.get(node);
    if (old) {
      const now = node.getBoundingClientRect();
      const dx = old.rect.left - now.left;
      const dy = old.rect.top - now.top;
      if (Math.abs(dx) > 1 || Math.abs(dy) > 1) slide(node, dx, dy);
      continue;
    }
    if (!node.classList.contains("up")) continue;
    const wasDownHere = before.cards.some((c) => c.key === keyOf(node) && !c.up);
    if (wasDownHere) {
      node.classList.add("turning");
      node.addEventListener("animationend", () => node.classList.remove("turning"), { once: true });
    } else if (fromStock && before.stock) {
      const now = node.getBoundingClientRect();
      slide(node, before.stock.left - now.left, before.stock.top - now.top);
    }
  }
}

function slide(node, dx, dy, turn = false) {
  node.style.transition = "none";
  node.style.transform = `translate(${dx}px, ${dy}px)`;
  node.classList.add("moving");
  if (turn) node.classList.add("turning");
  node.getBoundingClientRect(); // apply the start position before the transition
  requestAnimationFrame(() => {
    node.style.transition = `transform ${MS}ms cubic-bezier(.2,.7,.3,1)`;
    node.style.transform = "";
    const done = () => { node.style.transition = ""; node.classList.remove("moving", "turning"); };
    node.addEventListener("transitionend", done, { once: true });
    setTimeout(done, MS + 80);
  });
}
