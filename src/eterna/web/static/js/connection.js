// The table's WebSocket, kept open: after a drop (a node restarting or draining closes with 1012,
// a killed node or a lost network gives 1006) it dials again by itself, to the same site address,
// backing off exponentially with jitter up to a cap, so that the players of a restarted node do
// not all come back in the same instant. The page says it is reconnecting meanwhile and resumes
// from the welcome and update the new connection brings (docs/web.md, "Running on several
// machines"); no reload.

export const RETRY_BASE_MS = 500;
export const RETRY_CAP_MS = 10000;

// Before attempt `attempt` (0 for the first retry): a delay drawn in [ceiling/2, ceiling], the
// ceiling doubling from RETRY_BASE_MS up to RETRY_CAP_MS ("equal jitter").
export function retryDelay(attempt, random = Math.random) {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

// Opens `url()` and keeps it open. `onOpen()`, `onFrame(frame)` (parsed JSON; other data is
// ignored) and `onClose(event)` are called as they happen; onClose returns true when the close
// is final (no retry: an unknown table, a bad token). `onRetry(ms)` says when the next attempt
// is. The returned link sends frames, reopens (a new connection now) and drops (as a network
// failure would: it then reconnects).
export function keepOpen({ url, onOpen, onFrame, onClose, onRetry = () => {} }) {
  const link = { ws: null, attempt: 0, timer: null, stopped: false, connected: false };

  function dial() {
    link.timer = null;
    const ws = new WebSocket(url());
    link.ws = ws;
    ws.addEventListener("open", () => {
      if (link.ws !== ws) return;
      link.attempt = 0;
      link.connected = true;
      onOpen();
    });
    ws.addEventListener("message", (event) => {
      if (link.ws !== ws) return;
      let frame;
      try { frame = JSON.parse(event.data); } catch { return; }
      onFrame(frame);
    });
    ws.addEventListener("close", (event) => {
      if (link.ws !== ws) return;
      link.connected = false;
      if (onClose(event)) { link.stopped = true; return; }
      const delay = retryDelay(link.attempt);
      link.attempt += 1;
      link.timer = setTimeout(dial, delay);
      onRetry(delay);
    });
  }

  // Now rather than at the end of the back-off: the network is back, or the player asked.
  link.retryNow = () => {
    if (link.stopped || link.connected || link.timer === null) return;
    clearTimeout(link.timer);
    dial();
  };
  link.send = (frame) => {
    if (!link.ws || link.ws.readyState !== WebSocket.OPEN) return false;
    link.ws.send(JSON.stringify(frame));
    return true;
  };
  // A fresh connection at once (e.g. to be told the game in another language).
  link.reopen = () => {
    const old = link.ws;
    link.connected = false;
    if (link.timer !== null) clearTimeout(link.timer);
    dial();
    if (old) old.close();
  };
  link.drop = () => { if (link.ws) link.ws.close(); };

  window.addEventListener("online", link.retryNow);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) link.retryNow(); });
  dial();
  return link;
}
