// The signed-in player's own socket (/ws/me/), opened on every page: challenges received appear
// here with accept and decline, and a race formed for the player (a challenge accepted, a quick
// match) takes them to its room. The server decides everything; this draws what it sends.
import { post } from "./api.js";
import { fmt, gettext } from "./i18n.js";
import { LiveSocket } from "./socket.js";
import { el, toast } from "./ui.js";

const me = document.body.dataset.me;
const box = document.querySelector("[data-invitations]");
const shown = new Map(); // challenge id -> its element

function remove(id) {
  const node = shown.get(id);
  if (node) node.remove();
  shown.delete(id);
  box.hidden = shown.size === 0;
}

async function answer(challenge, verb) {
  try {
    const answered = await post(`/api/challenges/${challenge.id}/${verb}`);
    remove(challenge.id);
    if (answered.room) location.assign(`/rooms/${answered.room}/`);
  } catch (error) {
    remove(challenge.id);
    toast(error.message, { kind: "error" });
  }
}

function invitation(challenge) {
  const node = el(
    "div",
    { class: "invitation", role: "group", "aria-label": gettext("Challenge") },
    el("p", { text: fmt(gettext("%(name)s challenges you to a rated race of %(variant)s."), {
      name: challenge.challenger, variant: challenge.variant,
    }) }),
    el("button", { type: "button", class: "button primary small", "data-accept": true, onclick: () => answer(challenge, "accept") }, gettext("Accept")),
    " ",
    el("button", { type: "button", class: "button small", "data-decline": true, onclick: () => answer(challenge, "decline") }, gettext("Decline")),
  );
  setTimeout(() => remove(challenge.id), challenge.expires_in_ms);
  return node;
}

function show(challenge) {
  if (challenge.state === "accepted" && challenge.room) {
    location.assign(`/rooms/${challenge.room}/`);
    return;
  }
  if (challenge.state !== "pending") {
    if (challenge.state === "declined" && challenge.challenger === me) {
      toast(fmt(gettext("%(name)s declined your challenge."), { name: challenge.invitee }));
    }
    remove(challenge.id);
    return;
  }
  if (challenge.invitee !== me || shown.has(challenge.id)) return;
  const node = invitation(challenge);
  shown.set(challenge.id, node);
  box.append(node);
  box.hidden = false;
}

if (me && box) {
  new LiveSocket("/ws/me/", {
    onMessage(message) {
      if (message.type === "challenges") message.challenges.forEach(show);
      else if (message.type === "challenge") show(message.challenge);
      else if (message.type === "placed") location.assign(`/rooms/${message.room}/`);
    },
  });
}
