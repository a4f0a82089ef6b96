// Short share codes: a position stored on the server under a short id, opened at
// `/position/<id>` (or `/position#s.<id>`), with the players' names it is shown with; the
// self-contained code (`ep1.…`) stays beside it and needs no server.
import { api } from "./page.js";

// The short id a link names: `/position/<id>` or `#s.<id>`; null for anything else.
export function sharedId(loc = location) {
  const path = loc.pathname.match(/^\/position\/([A-Za-z0-9_-]{1,16})\/?$/);
  if (path) return path[1];
  const hash = decodeURIComponent(loc.hash.slice(1)).match(/^s\.([A-Za-z0-9_-]{1,16})$/);
  return hash ? hash[1] : null;
}

// Store `position` (its code or JSON) with the seats' `names` (or null): `{id, url, code}`.
export function shareShort(position, names) {
  return api("POST", "/api/positions/share", { position, ...(names ? { names } : {}) });
}

// A stored position: `{id, game, code, names}`.
export function loadShared(id) {
  return api("GET", `/api/positions/shared/${encodeURIComponent(id)}`);
}
