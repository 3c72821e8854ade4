// The player's options, kept in this browser, with the seeds' defaults.
import { BACKS } from "./cards.js";

const KEY = "solitaire-league.options";

export const DEFAULTS = Object.freeze({
  doubleClick: true, // double-click / double-tap sends a group to the best place
  placementAid: true, // highlight the places a dragged group may go
  autoPlacement: false, // a card dropped off-target goes to the best place
  interactiveRules: true, // after a refused move, show the rule in words
  fourColour: false, // diamonds blue and clubs green, told apart at a glance in 4-suit games
  back: "blue", // the card back, one of cards.js' BACKS
  sounds: false, // short generated sounds for moves, deals, sequences and a win
});

const CHOICES = { back: BACKS };

export function loadOptions() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    const options = { ...DEFAULTS };
    for (const [name, value] of Object.entries(DEFAULTS)) {
      const mine = saved[name];
      if (typeof value === "boolean" && typeof mine === "boolean") options[name] = mine;
      else if (CHOICES[name] && CHOICES[name].includes(mine)) options[name] = mine;
    }
    return options;
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveOptions(options) {
  try {
    localStorage.setItem(KEY, JSON.stringify(options));
  } catch {
    /* private mode: the options last for this page */
  }
}

// The options dialog: its inputs are named after the options (checkboxes, radio groups).
// `changed(name)` runs after each change has been saved.
export function bindOptionsDialog(dialog, opener, options, changed = () => {}) {
  opener.addEventListener("click", () => {
    for (const input of dialog.querySelectorAll("input[name]")) {
      if (!(input.name in options)) continue;
      if (input.type === "checkbox") input.checked = options[input.name];
      else if (input.type === "radio") input.checked = options[input.name] === input.value;
    }
    dialog.showModal();
  });
  dialog.addEventListener("change", (e) => {
    const input = e.target;
    if (!(input.name in options)) return;
    options[input.name] = input.type === "checkbox" ? input.checked : input.value;
    saveOptions(options);
    changed(input.name);
  });
}
