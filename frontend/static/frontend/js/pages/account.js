// Sign up / sign in: the API answers with the player; the browser session becomes theirs.
import { post } from "../api.js";

const form = document.querySelector("[data-auth]");
const errorBox = form.querySelector(".form-error");
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  errorBox.hidden = true;
  const path = form.dataset.mode === "signup" ? "/api/auth/signup" : "/api/auth/login";
  try {
    await post(path, { username: form.username.value.trim(), password: form.password.value });
    location.assign(form.dataset.next || "/");
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
  }
});
