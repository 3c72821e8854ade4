// A WebSocket that reconnects by itself; the server sends the whole state again on every connect.
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
    ws.addEventListener("close", () => {
      if (this.ws === ws) this.ws = null;
      this.onStatus("closed");
      this.retry();
    });
  }

  retry() {
    if (this.closed) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, 8000);
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
