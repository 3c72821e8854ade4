// What may move now, read from the server's lists: `legal` (every legal token), `best`
// (the double-click target of each group), `tap` (Russian single tap) and `table`. No rules here.
const MOVE = /^(\d+):(\d+)>(\d+)$/;
const HOME = /^(\d+)>F$/;
const BACK = /^F([SHDC])>(\d+)$/;

export class Moves {
  constructor(doc) {
    this.groups = new Map(); // "A:N" -> [B, ...]
    this.home = new Set(); // columns whose top card may go home
    this.back = new Map(); // suit -> [B, ...]
    this.deal = false;
    this.undo = false;
    for (const token of (doc && doc.legal) || []) {
      let m;
      if ((m = MOVE.exec(token))) {
        const key = `${m[1]}:${m[2]}`;
        if (!this.groups.has(key)) this.groups.set(key, []);
        this.groups.get(key).push(Number(m[3]));
      } else if ((m = HOME.exec(token))) this.home.add(Number(m[1]));
      else if ((m = BACK.exec(token))) {
        if (!this.back.has(m[1])) this.back.set(m[1], []);
        this.back.get(m[1]).push(Number(m[2]));
      } else if (token === "D") this.deal = true;
      else if (token === "U") this.undo = true;
    }
    this.best = (doc && doc.best) || {};
    this.tap = (doc && doc.tap) || {};
    // How many cards one move home takes (the server's count; 0: the game has no foundations).
    this.homeCards = (doc && doc.table && doc.table.home_move_cards) || 0;
  }

  goesHome(n) {
    return this.homeCards > 0 && n === this.homeCards;
  }

  canDrag(col, n) {
    return this.groups.has(`${col}:${n}`) || (this.goesHome(n) && this.home.has(col));
  }

  targets(col, n) {
    return { cols: this.groups.get(`${col}:${n}`) || [], foundation: this.goesHome(n) && this.home.has(col) };
  }

  canDragFoundation(suit) {
    return this.back.has(suit);
  }

  bestFor(col, n) {
    return this.best[`${col}:${n}`] || null;
  }

  tapFor(col) {
    return this.tap[String(col)] || null;
  }
}

export function moveToken(col, n, target) {
  return `${col}:${n}>${target}`;
}

// Whether two picked-up sources are the same group (or the same foundation's top card).
export function sameSource(a, b) {
  return a.suit ? a.suit === b.suit : a.col === b.col && a.idx === b.idx;
}
