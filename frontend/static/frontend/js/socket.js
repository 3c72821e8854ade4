import { gettext } from "./i18n.js";

// A WebSocket that reconnects by itself; the server sends the whole state again on every connect.
// A close with a code of 4400-4499 is the server's final word (no such game, room or board, no
// player): the socket stops and reports "gone" instead of trying again forever.
const FINAL = (code) => code >= 4400 && code <= 4499;

// What a page's connection badge says for each status.
export function statusText(status) {
  if (status === "open") return gettext("Live");
  if (status === "gone") return gettext("Not available");
  return gettext("Reconnecting…");
}

const SERVER_RESTARTING = 4012; // operations/drain.py: CLOSE_RESTARTING

export class LiveSocket {
  constructor(path, { onMessage, onStatus } = {}) {
    this.path = path;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.delay = 500;
    this.closed = false;
    this.ws = null;
    this.connect();
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${scheme}//${location.host}${this.path}`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 500;
      this.onStatus("open");
    });
    ws.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws === ws) this.ws = null;
      if (FINAL(event.code)) {
        this.closed = true;
        this.onStatus("gone", event.code);
        return;
      }
      this.onStatus("closed");
      // The worker is restarting and has answered all it was sent: reconnect now (the balancer
      // sends us to another worker), not after a back-off.
      if (event.code === SERVER_RESTARTING) this.delay = 0;
      this.retry();
    });
  }

  retry() {
    if (this.closed) return;
    const wait = this.delay;
    this.delay = Math.min(Math.max(this.delay, 250) * 2, 8000); // after an immediate retry: 500 ms on
    setTimeout(() => this.connect(), wait);
  }

  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
