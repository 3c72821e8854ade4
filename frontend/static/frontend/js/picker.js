// The game / suits / rules picker (home page and the new-game dialog): it shows only the
// choices that exist for the chosen game and names the variant they make.
import { buildVariant, parseVariant } from "./variants.js";

export class Picker {
  constructor(form, { onChange } = {}) {
    this.form = form;
    this.onChange = onChange || (() => {});
    form.addEventListener("change", () => this.refresh());
    this.refresh();
  }

  value(name) {
    const checked = this.form.querySelector(`input[name="${name}"]:checked`);
    return checked ? checked.value : null;
  }

  get variant() {
    return buildVariant({
      prefix: this.value("game"),
      suits: Number(this.value("suits")),
      rules: this.value("rules"),
    });
  }

  set variant(variant) {
    const { prefix, suits, rules } = parseVariant(variant);
    const set = (name, value) => {
      const input = this.form.querySelector(`input[name="${name}"][value="${value}"]`);
      if (input) input.checked = true;
    };
    set("game", prefix);
    if (prefix !== "RU1") set("suits", suits);
    set("rules", rules);
    this.refresh();
  }

  refresh() {
    const game = this.value("game");
    const suits = Number(this.value("suits"));
    const suitsBox = this.form.querySelector(".picker-suits");
    const rulesBox = this.form.querySelector(".picker-rules");
    suitsBox.hidden = game === "RU1";
    // Classic or Relaxed: Spider with 2 or 4 suits, and Russian Solitaire.
    rulesBox.hidden = !(game === "RU1" || (game === "SP1" && suits > 1));
    for (const note of rulesBox.querySelectorAll("[data-for]")) note.hidden = note.dataset.for !== game;
    const out = this.form.querySelector("[data-variant-out]");
    if (out) out.textContent = this.variant;
    this.onChange(this.variant);
  }
}
