// The info bar: time (ticking from the server's elapsed time), moves, score and the game code.
import { gettext } from "./i18n.js";
import { duration } from "./ui.js";

export class InfoBar {
  constructor(root) {
    this.root = root;
    this.time = root.querySelector("[data-time]");
    this.moves = root.querySelector("[data-moves]");
    this.score = root.querySelector("[data-score]");
    this.code = root.querySelector("[data-code]");
    this.game = root.querySelector("[data-game]");
    this.base = 0;
    this.since = performance.now();
    this.running = false;
    setInterval(() => this.tick(), 500);
  }

  update(doc, gameLabel) {
    this.base = doc.elapsed_ms || 0;
    this.since = performance.now();
    this.running = !doc.finished;
    this.moves.textContent = String(doc.view.moves);
    this.score.textContent = String(doc.view.score);
    const code = doc.code || doc.view.code;
    this.code.textContent = code || (doc.room ? gettext("Race — shown when the race is over")
      : gettext("Daily — hidden until the day is over"));
    this.code.classList.toggle("hidden-code", !code);
    if (this.game) this.game.textContent = gameLabel;
    this.tick();
  }

  tick() {
    const ms = this.base + (this.running ? performance.now() - this.since : 0);
    this.time.textContent = duration(ms);
  }
}
