// A race beside the table: the other players' live progress from the room's socket, the countdown
// to the go, the final table with each replay, and the way back to the room. Everything shown is
// the server's room document; nothing here knows the rules.
import { LiveSocket } from "./socket.js";
import { gettext, ngettext, fmt } from "./i18n.js";
import { el, duration, toast } from "./ui.js";
import { drawAfterRace } from "./rematch.js";

export class RacePanel {
  // `goal` and `total`: what a win counts ("sequences" or "cards_home") and how many win, from the table;
  // `me`: my name as the room shows it (a signed-up player's), whose row is marked.
  constructor(root, { roomId, goal, total, me = "", onRoom }) {
    this.root = root;
    this.goal = goal;
    this.total = total;
    this.me = me;
    this.onRoom = onRoom || (() => {});
    this.list = root.querySelector("[data-race-players]");
    this.title = root.querySelector("[data-race-title]");
    root.querySelector("[data-race-room]").href = `/rooms/${roomId}/`;
    root.hidden = false;
    this.socket = new LiveSocket(`/ws/rooms/${roomId}/`, {
      onMessage: (message) => { if (message.type === "room") this.draw(message); },
    });
  }

  progressOf(p) {
    const done = `${p[this.goal] ?? 0}/${this.total}`;
    return this.goal === "cards_home" ? fmt(gettext("%(n)s home"), { n: done }) : done;
  }

  statusOf(p) {
    if (p.out_of_time) return gettext("Out of time");
    if (p.won) return gettext("Won");
    if (p.finished) return gettext("Finished");
    return gettext("Playing");
  }

  draw(room) {
    this.onRoom(room);
    const final = room.state === "finished";
    this.root.classList.toggle("final", final);
    this.title.textContent = final ? gettext("Final table") : gettext("The race");
    this.clock = timeLeft(this.clock, this.title, room);
    this.list.replaceChildren(...(room.players || []).map((p, i) => el("li", {
      class: [p.won ? "won" : "", this.me && p.player === this.me ? "me" : ""].join(" ").trim() || null,
      "aria-current": this.me && p.player === this.me ? "true" : null,
    },
      el("span", { class: "race-rank" }, final ? `${i + 1}.` : ""),
      el("span", { class: "race-name" }, p.player),
      el("span", { class: "race-progress" }, this.progressOf(p)),
      el("span", { class: "race-moves" }, fmt(ngettext("%(n)s move", "%(n)s moves", p.moves), { n: p.moves })),
      el("span", { class: "race-undos" }, fmt(ngettext("%(n)s undo", "%(n)s undos", p.undos), { n: p.undos })),
      el("span", { class: "race-status" }, this.statusOf(p), p.elapsed_ms ? ` · ${duration(p.elapsed_ms)}` : ""),
      final && p.result ? el("a", { href: `/replay/${p.result}/` }, gettext("Watch")) : null)));
    this.showMine();
    drawAfterRace(this.root.querySelector("[data-after-race]"), room, {
      me: this.me, onError: (message) => toast(message, { kind: "error" }),
    });
  }

  // My own row in view in the strip of players (a phone shows few of them at once).
  showMine() {
    const mine = this.list.querySelector(".me");
    if (!mine || this.list.scrollWidth <= this.list.clientWidth) return;
    const left = mine.getBoundingClientRect().left - this.list.getBoundingClientRect().left + this.list.scrollLeft;
    if (left < this.list.scrollLeft || left + mine.offsetWidth > this.list.scrollLeft + this.list.clientWidth) {
      this.list.scrollLeft = Math.max(0, left + mine.offsetWidth - this.list.clientWidth);
    }
  }
}

// The countdown before the go: the table stays face down; at zero `onGo` fetches the dealt table.
export function countdown(box, ms, onGo) {
  const end = performance.now() + ms;
  box.hidden = false;
  const tick = () => {
    const left = Math.ceil((end - performance.now()) / 1000);
    if (left <= 0) {
      box.textContent = gettext("Go!");
      setTimeout(() => { box.hidden = true; }, 700);
      onGo();
      return;
    }
    box.textContent = String(left);
    setTimeout(tick, Math.min(250, end - performance.now()));
  };
  tick();
}

// The time left until a race's limit (the server ends the games still open then, placed last),
// ticking after `label`'s own text (league.css puts the separator): a span kept across the room's
// updates. Returns that span.
export function timeLeft(span, label, room) {
  if (!span) span = el("span", { class: "race-clock", role: "timer" });
  clearInterval(span.ticking);
  const end = performance.now() + (room.ends_in_ms || 0);
  const tick = () => {
    const left = end - performance.now();
    span.textContent = left > 0 ? fmt(gettext("%(time)s left"), { time: duration(left) }) : "";
    if (left <= 0) clearInterval(span.ticking);
  };
  if (room.state === "racing" && room.ends_in_ms > 0) {
    tick();
    span.ticking = setInterval(tick, 1000);
  } else {
    span.textContent = "";
  }
  if (span.parentNode !== label) label.append(span);
  return span;
}
