// A chart of results over time, drawn as inline SVG: score on the y axis, one point per game
// (green won, red not), joined by a line in the order played. The same drawing serves other series
// (a race rating after each race): `value`, `when`, `won` and `title` say what to read of a point.
import { gettext } from "./i18n.js";
import { shortDate } from "./ui.js";

const NS = "http://www.w3.org/2000/svg";

function node(tag, attrs, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

export function scoreChart(points, {
  width = 640, height = 240,
  value = (p) => p.score, when = (p) => p.finished_at, won = (p) => p.won,
  title = gettext("Score of each game, oldest first"), fromZero = true,
} = {}) {
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img" });
  svg.append(node("title", {}, title));
  if (!points.length) {
    svg.append(node("text", { x: width / 2, y: height / 2, "text-anchor": "middle" }, gettext("No games yet")));
    return svg;
  }
  const pad = { l: 44, r: 12, t: 12, b: 28 };
  const scores = points.map(value);
  let lo = fromZero ? Math.min(0, ...scores) : Math.min(...scores);
  let hi = Math.max(...scores);
  if (hi === lo) hi = lo + 1;
  const x = (i) => pad.l + (points.length === 1 ? (width - pad.l - pad.r) / 2 : (i * (width - pad.l - pad.r)) / (points.length - 1));
  const y = (v) => pad.t + ((hi - v) * (height - pad.t - pad.b)) / (hi - lo);
  for (let k = 0; k <= 4; k++) {
    const v = Math.round(lo + ((hi - lo) * k) / 4);
    svg.append(node("line", { x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(node("text", { x: pad.l - 6, y: y(v) + 4, "text-anchor": "end" }, v));
  }
  svg.append(node("line", { x1: pad.l, x2: pad.l, y1: pad.t, y2: height - pad.b, class: "axis" }));
  svg.append(node("line", { x1: pad.l, x2: width - pad.r, y1: height - pad.b, y2: height - pad.b, class: "axis" }));
  svg.append(node("text", { x: pad.l, y: height - 8 }, shortDate(when(points[0]))));
  if (points.length > 1) {
    svg.append(node("text", { x: width - pad.r, y: height - 8, "text-anchor": "end" }, shortDate(when(points[points.length - 1]))));
  }
  svg.append(node("polyline", { class: "line", points: points.map((p, i) => `${x(i)},${y(value(p))}`).join(" ") }));
  points.forEach((p, i) => {
    const dot = node("circle", { cx: x(i), cy: y(value(p)), r: 4.5, class: won(p) ? "won" : "lost" });
    dot.append(node("title", {}, `${shortDate(when(p))}: ${value(p)}${won(p) ? " ✓" : ""}`));
    svg.append(dot);
  });
  return svg;
}
