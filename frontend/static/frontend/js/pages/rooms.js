// Open a race room on a fresh deal of a variant (or on a code), or go to one by its link.
import { post } from "../api.js";
import { Picker } from "../picker.js";

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
