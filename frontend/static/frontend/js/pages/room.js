// A race room: who is in, live progress of each player, join, start (host) and play.
import { get, post } from "../api.js";
import { LiveSocket, statusText } from "../socket.js";
import { goalOf, variantLabel } from "../variants.js";
import { gettext } from "../i18n.js";
import { el, duration } from "../ui.js";
import { drawAfterRace } from "../rematch.js";
import { timeLeft } from "../race.js";

const root = document.querySelector("[data-room]");
const id = root.dataset.roomId;
const errorBox = root.querySelector(".form-error");
root.querySelector("[data-room-link]").value = location.href;

const STATE = () => ({
  lobby: gettext("Waiting for the host to start"),
  racing: gettext("The race is on"),
  finished: gettext("The race is over"),
});

let lastState = null;
let clock = null; // the race's time left, after the state line
let wasMember = false;

function draw(room) {
  // Seen here in the lobby, the race starting takes each player to their game (its countdown runs there).
  const you = room.you || {};
  if (lastState === "lobby" && room.state === "racing" && you.session) {
    location.assign(`/play/${you.session}/`);
    return;
  }
  if (lastState === "lobby" && room.state === "racing" && wasMember && !you.member) {
    // Left out at the start: this player had started too many games in the last minute (docs/api.md).
    errorBox.textContent = gettext("The race started without you: you had started too many games in the last minute. You can watch it here.");
    errorBox.hidden = false;
  }
  lastState = room.state;
  wasMember = Boolean(you.member);
  const russian = goalOf(room.variant) === "cards_home";
  root.querySelector("[data-room-title]").textContent = `${gettext("Race room")}: ${variantLabel(room.variant)}`;
  const state = root.querySelector("[data-room-state]");
  state.textContent = [STATE()[room.state] || room.state, room.code].filter(Boolean).join(" · ");
  clock = timeLeft(clock, state, room);
  root.querySelector("[data-progress-head]").textContent = russian ? gettext("Cards home") : gettext("Sequences");
  root.querySelector("[data-join]").hidden = you.member || room.state !== "lobby";
  root.querySelector("[data-start]").hidden = !(you.host && room.state === "lobby");
  const play = root.querySelector("[data-play]");
  play.hidden = !(you.session && room.state !== "lobby");
  if (you.session) play.href = `/play/${you.session}/`;
  // My own row is marked (a signed-up player's: every guest is called Guest).
  const me = root.dataset.me;
  root.querySelector("[data-room-players]").replaceChildren(...(room.players || []).map((p, i) => el("tr", {
    class: me && p.player === me ? "me" : null, "aria-current": me && p.player === me ? "true" : null },
    el("td", { class: "num" }, i + 1),
    el("td", {}, p.player),
    el("td", { class: "num" }, russian ? p.cards_home : p.sequences),
    el("td", { class: "num" }, p.score),
    el("td", { class: "num" }, p.moves),
    el("td", { class: "num" }, p.undos ?? 0),
    el("td", {}, p.out_of_time ? gettext("Out of time") : p.won ? gettext("Won") : p.finished ? gettext("Finished") : room.state === "lobby" ? gettext("Ready") : gettext("Playing"),
      p.elapsed_ms ? ` · ${duration(p.elapsed_ms)}` : "",
      p.result ? [" · ", el("a", { href: `/replay/${p.result}/` }, gettext("Watch"))] : ""))));
  drawAfterRace(root.querySelector("[data-after-race]"), room, { me, onError: showError });
}

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

async function call(path) {
  errorBox.hidden = true;
  try {
    draw(await post(path));
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
  }
}

root.querySelector("[data-join]").addEventListener("click", () => call(`/api/rooms/${id}/join`));
root.querySelector("[data-start]").addEventListener("click", () => {
  if (!socket.send({ type: "start" })) call(`/api/rooms/${id}/start`);
});

const connection = root.querySelector("[data-connection]");
const socket = new LiveSocket(`/ws/rooms/${id}/`, {
  onMessage(message) {
    if (message.type === "room") draw(message);
    else if (message.type === "error" && message.error) {
      errorBox.textContent = message.error.message;
      errorBox.hidden = false;
    }
  },
  onStatus(status) {
    connection.dataset.state = status;
    connection.textContent = statusText(status);
  },
});
get(`/api/rooms/${id}`).then(draw).catch((error) => {
  errorBox.textContent = error.status === 404 ? gettext("There is no such room.") : error.message;
  errorBox.hidden = false;
});
