// The JSON API client: every call resolves to the parsed body or throws an ApiError whose
// message is the server's one-sentence `detail`.

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

function detailText(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    // FastAPI's own validation errors: [{loc, msg}, ...]
    return detail.map((d) => (d && d.msg ? `${(d.loc || []).join(".")}: ${d.msg}` : String(d)))
      .join("; ");
  }
  return JSON.stringify(detail);
}

export async function request(method, url, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new ApiError(0, `cannot reach the server (${e.message})`);
  }
  const type = res.headers.get("content-type") || "";
  const payload = type.includes("json") ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const detail = payload && typeof payload === "object" && "detail" in payload
      ? detailText(payload.detail)
      : `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, detail);
  }
  return payload;
}

export const api = {
  get: (url) => request("GET", url),
  post: (url, body) => request("POST", url, body),
  put: (url, body, headers) => request("PUT", url, body, headers),
  del: (url, headers) => request("DELETE", url, undefined, headers),
  catalog: (kind) => request("GET", `/api/catalog/${kind}`),
  /** This browser's teams: those it owns (their owner tokens) and those it opened by link. */
  teams: () => request("GET", ownerStore.listUrl(), undefined, ownerStore.listHeaders()),
};

function readLocal(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null") ?? fallback;
  } catch {
    return fallback;
  }
}

function writeLocal(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode: the tokens last as long as the page */
  }
}

/** Owner tokens of the teams this browser saved (PUT and DELETE need them, like seat tokens
 * for a game), and the ids of teams it opened by a share link. */
export const ownerStore = {
  key: "carnage.owners",
  openedKey: "carnage.opened",
  tokens: () => readLocal(ownerStore.key, {}),
  token: (id) => ownerStore.tokens()[id] || null,
  save(id, token) {
    writeLocal(this.key, { ...this.tokens(), [id]: token });
  },
  forget(id) {
    const t = this.tokens();
    delete t[id];
    writeLocal(this.key, t);
    writeLocal(this.openedKey, this.opened().filter((x) => x !== id));
  },
  opened: () => readLocal(ownerStore.openedKey, []),
  open(id) {
    if (this.token(id)) return;
    writeLocal(this.openedKey, [id, ...this.opened().filter((x) => x !== id)].slice(0, 100));
  },
  headers(id) {
    const t = this.token(id);
    return t ? { "X-Owner-Token": t } : {};
  },
  listUrl() {
    const o = this.opened();
    return o.length ? `/api/teams?opened=${encodeURIComponent(o.join(","))}` : "/api/teams";
  },
  listHeaders() {
    const t = Object.values(this.tokens());
    return t.length ? { "X-Owner-Token": t.join(",") } : {};
  },
};

/** Local memory of seat tokens for hot-seat play (one browser holding several seats). */
export const seatStore = {
  key: (gameId) => `carnage.game.${gameId}`,
  load(gameId) {
    try {
      return JSON.parse(localStorage.getItem(this.key(gameId)) || "null");
    } catch {
      return null;
    }
  },
  save(gameId, data) {
    try {
      localStorage.setItem(this.key(gameId), JSON.stringify(data));
    } catch {
      /* private mode: hot-seat memory is a convenience only */
    }
  },
};
