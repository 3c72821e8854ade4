// Sign up / sign in: the API answers with the player; the browser session becomes theirs.
import { post } from "../api.js";

// The server checked `next` already; the script checks it again with the browser's own parser, so
// whatever it reads as another site (`/\evil.example`, `/\t/evil.example`) lands on the home page.
export function sameSitePath(next) {
  try {
    const target = new URL(next || "/", location.origin);
    // A path of "//host" would itself be read as another site.
    if (target.origin === location.origin && !target.pathname.startsWith("//")) {
      return target.pathname + target.search + target.hash;
    }
  } catch {
    // not an address at all
  }
  return "/";
}

const form = document.querySelector("[data-auth]");
const errorBox = form.querySelector(".form-error");
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  errorBox.hidden = true;
  const path = form.dataset.mode === "signup" ? "/api/auth/signup" : "/api/auth/login";
  try {
    await post(path, { username: form.username.value.trim(), password: form.password.value });
    location.assign(sameSitePath(form.dataset.next));
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
  }
});
