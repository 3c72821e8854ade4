// Under a finished race's table: whether it was rated (or why not), its review, and its rematch,
// all as the room's document says (its socket pushes each rematch tap to every racer's table).
// A racer's tap opens the rematch room, or joins it once another racer opened it.
import { post } from "./api.js";
import { gettext, fmt } from "./i18n.js";
import { el } from "./ui.js";

const VERDICTS = () => ({
  rated: gettext("A rated race: it counts towards each player's rating."),
  called_off: gettext("Not rated: the host ended the race while someone was still playing."),
  known_code: gettext("Not rated: the race was on a chosen code, not a hidden fresh deal."),
  too_few: gettext("Not rated: fewer than two players with a name raced."),
  linked: gettext("Not rated: two players came from the same device or address."),
});

export function drawAfterRace(box, room, { me = "", onError = () => {} } = {}) {
  box.hidden = room.state !== "finished";
  if (box.hidden) return;
  const you = room.you || {};
  const parts = [];
  if (room.rated) parts.push(el("p", { class: "muted", "data-rated": room.rated }, VERDICTS()[room.rated] || ""));
  const rematch = room.rematch;
  const row = el("p", { class: "row" });
  if (you.member) {
    const joined = rematch && me && rematch.players.includes(me);
    if (joined) {
      row.append(el("a", { class: "button primary", href: `/rooms/${rematch.room}/` }, gettext("Go to the rematch")));
    } else {
      const button = el("button", { type: "button", class: "button primary", "data-rematch": "" },
        rematch ? gettext("Join the rematch") : gettext("Rematch"));
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          const next = await post(`/api/rooms/${room.id}/rematch`);
          location.assign(`/rooms/${next.id}/`);
        } catch (error) {
          button.disabled = false;
          onError(error.message);
        }
      });
      row.append(button);
    }
  } else if (rematch) {
    row.append(el("a", { class: "button", href: `/rooms/${rematch.room}/` }, gettext("Watch the rematch")));
  }
  row.append(el("a", { class: "button", href: `/rooms/${room.id}/review/` }, gettext("Review the race")));
  parts.push(row);
  if (rematch) {
    parts.push(el("p", { class: "muted", "data-rematch-players": "" },
      fmt(gettext("In the rematch: %(players)s"), { players: rematch.players.join(", ") })));
  }
  box.replaceChildren(...parts);
}
