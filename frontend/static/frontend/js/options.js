// The player's options, kept in this browser, with the seeds' defaults.
const KEY = "solitaire-league.options";

export const DEFAULTS = Object.freeze({
  doubleClick: true, // double-click / double-tap sends a group to the best place
  placementAid: true, // highlight the places a dragged group may go
  autoPlacement: false, // a card dropped off-target goes to the best place
  interactiveRules: true, // after a refused move, show the rule in words
});

export function loadOptions() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    const options = { ...DEFAULTS };
    for (const name of Object.keys(DEFAULTS)) {
      if (typeof saved[name] === "boolean") options[name] = saved[name];
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
