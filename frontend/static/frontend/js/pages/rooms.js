// Open a race room on a fresh deal of a variant (or on a code), or go to one by its link; find a
// rated race, or challenge a player to one.
import { api, get, post } from "../api.js";
import { fmt, gettext, ngettext } from "../i18n.js";
import { Picker } from "../picker.js";
import { toast } from "../ui.js";

const form = document.querySelector("[data-room-form]");
const picker = new Picker(form);
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const errorBox = form.querySelector(".form-error");
  errorBox.hidden = true;
  const code = form.code.value.trim();
  try {
    const room = await post("/api/rooms", code ? { code } : { variant: picker.variant });
    location.assign(`/rooms/${room.id}/`);
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
  }
});

const join = document.querySelector("[data-join-form]");
join.addEventListener("submit", (e) => {
  e.preventDefault();
  const text = join.room.value.trim();
  const match = text.match(/([0-9a-f-]{36})/i);
  location.assign(`/rooms/${match ? match[1] : encodeURIComponent(text)}/`);
});

// Rated races: find a race of the chosen variant (the server forms it and says where to go), or
// challenge a player by name to one.
const matchForm = document.querySelector("[data-match-form]");
if (matchForm) {
  const matchPicker = new Picker(matchForm);
  const statusLine = matchForm.querySelector("[data-match-status]");
  const cancel = matchForm.querySelector("[data-match-cancel]");
  const find = matchForm.querySelector("[data-find]");
  const matchError = matchForm.querySelector(".form-error");
  let timer = null;
  let active = false; // waiting: an answer that arrives after a cancel is dropped, not shown

  const waiting = (on) => {
    active = on;
    find.disabled = on;
    cancel.hidden = !on;
    statusLine.hidden = !on;
    if (!on) clearTimeout(timer);
  };
  const shown = (status) => {
    if (status.room) {
      location.assign(`/rooms/${status.room}/`);
      return;
    }
    statusLine.textContent = fmt(
      ngettext("Waiting for a race of %(variant)s: %(n)s player waiting.", "Waiting for a race of %(variant)s: %(n)s players waiting.", status.waiting),
      { variant: status.variant, n: status.waiting },
    );
    waiting(true);
    // Asking again tells the server this player is still here (one gone quiet is not placed); once
    // placed, the answer names the race.
    clearTimeout(timer);
    timer = setTimeout(() => ask(status.variant), 2000);
  };
  const failed = (error) => {
    waiting(false);
    matchError.textContent = error.message;
    matchError.hidden = false;
  };
  async function ask(variant) {
    if (!active) return;
    try {
      const status = await post("/api/match", { variant });
      if (active) shown(status);
    } catch (error) {
      if (active) failed(error);
    }
  }
  matchForm.addEventListener("submit", (e) => {
    e.preventDefault();
    matchError.hidden = true;
    active = true;
    ask(matchPicker.variant);
  });
  cancel.addEventListener("click", async () => {
    waiting(false);
    try { await api("DELETE", "/api/match"); waiting(false); } catch (error) { failed(error); }
  });
  // A reload while waiting shows the wait (a look), then goes on asking.
  get("/api/match").then(shown, (error) => { if (error.status !== 404) failed(error); });

  const challengeForm = document.querySelector("[data-challenge-form]");
  challengeForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    matchError.hidden = true;
    try {
      const sent = await post("/api/challenges", { name: challengeForm.name.value, variant: matchPicker.variant });
      toast(fmt(gettext("Challenge sent to %(name)s: it waits two minutes for an answer."), { name: sent.invitee }));
    } catch (error) {
      matchError.textContent = error.message;
      matchError.hidden = false;
    }
  });
}
