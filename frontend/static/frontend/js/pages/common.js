// On every page: the language switch submits itself; the sign-out button signs out; a signed-in
// player's own socket brings their challenges (player_socket.js).
import { post } from "../api.js";

for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.submit());
}

for (const button of document.querySelectorAll("[data-logout]")) {
  button.addEventListener("click", async () => {
    try {
      await post("/api/auth/logout");
    } finally {
      location.assign("/");
    }
  });
}

if (document.body.dataset.me) import("../player_socket.js");
