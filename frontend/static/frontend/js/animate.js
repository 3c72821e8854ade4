// Move animation by FLIP: remember where cards were, draw the new state, then slide each
// card from its old place to its new one. A card that was face-down and is now face-up turns over,
// a deal flies out of the stock column by column, and a completed sequence flies to its pile.
// Nothing moves for a player who asks for reduced motion.
import { faceUp } from "./cards.js";

const MS = 200;
const DEAL_STAGGER = 45;
const SEQUENCE_MS = 420;

export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

export function animateFrom(before, board, { fromStock = false } = {}) {
  if (!before || reducedMotion()) return;
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
  const wasDownAt = (node) => before.cards.some((c) => c.key === keyOf(node) && !c.up);
  for (const node of after) {
    if (match.has(node) || !node.dataset.card || wasDownAt(node)) continue; // a card turned over stays put
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
    if (wasDownAt(node)) {
      node.classList.add("turning");
      node.addEventListener("animationend", () => node.classList.remove("turning"), { once: true });
    } else if (fromStock && before.stock) {
      const now = node.getBoundingClientRect();
      const delay = (Number(node.dataset.col) - 1) * DEAL_STAGGER;
      slide(node, before.stock.left - now.left, before.stock.top - now.top, { delay });
    }
  }
  const removed = board.root.querySelectorAll(".removed-pile");
  if (before.removed !== undefined && removed.length && countRemoved(board) > before.removed) {
    const gone = before.cards.filter((c, i) => unused.has(i) && c.card && c.up);
    flyToPile(gone, removed[countRemoved(board) - 1]);
  }
}

function countRemoved(board) {
  return board.view && board.view.removed ? board.view.removed.length : 0;
}

// The 13 cards of a completed sequence leave their column for the removed pile, ace first,
// drawn as stand-ins above the table while the pile waits for them.
function flyToPile(cards, pile) {
  if (!cards.length || !pile) return;
  const target = pile.getBoundingClientRect();
  pile.style.visibility = "hidden";
  const layer = document.createElement("div");
  layer.className = "fly-layer";
  layer.setAttribute("aria-hidden", "true");
  document.body.append(layer);
  const order = [...cards].reverse();
  order.forEach((c, i) => {
    const ghost = faceUp(c.card, { label: "" });
    ghost.classList.add("ghost");
    Object.assign(ghost.style, {
      left: `${c.rect.left}px`, top: `${c.rect.top}px`, width: `${c.rect.width}px`, height: `${c.rect.height}px`,
    });
    layer.append(ghost);
    const dx = target.left - c.rect.left;
    const dy = target.top - c.rect.top;
    const scale = target.width / c.rect.width;
    ghost.animate(
      [{ transform: "none" }, { transform: `translate(${dx}px, ${dy}px) scale(${scale})` }],
      { duration: SEQUENCE_MS, delay: i * 28, easing: "cubic-bezier(.3,.6,.3,1)", fill: "forwards" },
    );
  });
  setTimeout(() => { pile.style.visibility = ""; layer.remove(); }, SEQUENCE_MS + order.length * 28 + 40);
}

function slide(node, dx, dy, { delay = 0 } = {}) {
  node.style.transition = "none";
  node.style.transform = `translate(${dx}px, ${dy}px)`;
  node.classList.add("moving");
  node.getBoundingClientRect(); // apply the start position before the transition
  requestAnimationFrame(() => {
    node.style.transition = `transform ${MS}ms cubic-bezier(.2,.7,.3,1) ${delay}ms`;
    node.style.transform = "";
    const done = () => { node.style.transition = ""; node.classList.remove("moving", "turning"); };
    node.addEventListener("transitionend", done, { once: true });
    setTimeout(done, MS + delay + 80);
  });
}

// The win: the cards leave their piles one by one and bounce across the screen, leaving trails,
// for a few seconds or until a click or key. Resolves at once when motion is reduced.
export function celebrate(board) {
  if (reducedMotion()) return Promise.resolve();
  const sources = [...board.root.querySelectorAll(".removed-pile, .foundation .card:last-child")];
  if (!sources.length) return Promise.resolve();
  const canvas = document.createElement("canvas");
  canvas.className = "celebration";
  canvas.setAttribute("aria-hidden", "true");
  const ratio = devicePixelRatio || 1;
  canvas.width = innerWidth * ratio;
  canvas.height = innerHeight * ratio;
  document.body.append(canvas);
  const ctx = canvas.getContext("2d");
  ctx.scale(ratio, ratio);
  const RANKS = "KQJT98765432A";
  const launches = [];
  sources.forEach((node, s) => {
    const suit = (node.dataset.card || "KS")[1];
    for (let r = 0; r < RANKS.length; r++) launches.push({ card: RANKS[r] + suit, at: r * sources.length + s, node });
  });
  launches.sort((a, b) => a.at - b.at);
  return new Promise((resolve) => {
    const flying = [];
    let next = 0;
    let frame = 0;
    let stop = false;
    const end = () => {
      if (stop) return;
      stop = true;
      removeEventListener("pointerdown", end);
      removeEventListener("keydown", end);
      canvas.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 300 }).onfinish = () => { canvas.remove(); resolve(); };
    };
    addEventListener("pointerdown", end);
    addEventListener("keydown", end);
    const tick = () => {
      if (stop) return;
      frame++;
      if (frame % 4 === 0 && next < launches.length) {
        const { card, node } = launches[next++];
        const rect = node.getBoundingClientRect();
        const img = faceUp(card).querySelector("img");
        flying.push({ img, x: rect.left, y: rect.top, w: rect.width, h: rect.height,
          vx: (Math.random() * 5 + 2) * (Math.random() < 0.5 ? -1 : 1), vy: -Math.random() * 6 });
      }
      for (const f of flying) {
        f.vy += 0.45;
        f.x += f.vx;
        f.y += f.vy;
        if (f.y + f.h > innerHeight) { f.y = innerHeight - f.h; f.vy *= -0.78; }
        if (f.img.complete) ctx.drawImage(f.img, f.x, f.y, f.w, f.h);
      }
      const gone = flying.filter((f) => f.x + f.w < 0 || f.x > innerWidth);
      if (next >= launches.length && gone.length === flying.length) end();
      else if (frame > 60 * 9) end();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
