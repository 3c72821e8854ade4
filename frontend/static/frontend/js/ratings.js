// A race rating as the server gives it: "1560 ± 420", and "provisional" for a player's first races.
import { gettext, fmt } from "./i18n.js";

export function ratingText(r) {
  return fmt(gettext("%(rating)s ± %(uncertainty)s"), { rating: r.rating, uncertainty: r.uncertainty });
}
