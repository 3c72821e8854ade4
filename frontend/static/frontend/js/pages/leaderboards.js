// The list of boards: today's dailies with their top three, the archive of past days, each variant's all-time board, any code's board.
import { get } from "../api.js";
import { catalogue, variantLabel } from "../variants.js";
import { gettext } from "../i18n.js";
import { el, dayName } from "../ui.js";
import { topThree } from "../podium.js";

const list = document.querySelector("[data-boards]");
get("/api/daily").then((data) => {
  document.querySelector("[data-daily-date]").textContent = dayName(data.date);
  list.replaceChildren(...data.dailies.map((daily) => el("li", { class: "daily" },
    el("a", { class: "daily-name", href: `/leaderboards/${encodeURIComponent(daily.board)}/` }, variantLabel(daily.variant)),
    daily.board && daily.status !== "preparing" ? topThree(daily.board) : null)));
}).catch(() => { list.replaceChildren(el("li", { class: "muted" }, gettext("The daily challenges are not available."))); });

document.querySelector("[data-all-time-list]").replaceChildren(...catalogue.variants.map((v) => el("li", { class: "daily" },
  el("a", { class: "daily-name", href: `/leaderboards/all-time/${v.id}/` }, v.name))));

const form = document.querySelector("[data-board-form]");
form.addEventListener("submit", (e) => {
  e.preventDefault();
  const code = form.code.value.trim().toUpperCase();
  if (code) location.assign(`/leaderboards/${encodeURIComponent(`code:${code}`)}/`);
});
