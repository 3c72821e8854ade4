// The game / suits / rules picker (home page, rooms and the new-game dialog): it shows only the
// choices the chosen game offers and names the variant they make, all from the server's catalogue.
import { findVariant, choicesOf, variantInfo } from "./variants.js";

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
    return findVariant({ game: this.value("game"), suits: Number(this.value("suits")), rule: this.value("rules") });
  }

  set variant(variant) {
    const info = variantInfo(variant);
    if (!info) return;
    const set = (name, value) => {
      const input = this.form.querySelector(`input[name="${name}"][value="${value}"]`);
      if (input) input.checked = true;
    };
    set("game", info.game);
    const offers = choicesOf(info.game, info.suits);
    if (offers.suits) set("suits", info.suits);
    if (offers.rules) set("rules", info.rule);
    this.refresh();
  }

  refresh() {
    const game = this.value("game");
    const offers = choicesOf(game, Number(this.value("suits")));
    this.form.querySelector(".picker-suits").hidden = !offers.suits;
    const rulesBox = this.form.querySelector(".picker-rules");
    rulesBox.hidden = !offers.rules;
    for (const note of rulesBox.querySelectorAll("[data-for]")) note.hidden = note.dataset.for !== game;
    const out = this.form.querySelector("[data-variant-out]");
    if (out) out.textContent = this.variant || "";
    this.onChange(this.variant);
  }
}
