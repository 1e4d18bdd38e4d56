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

export async function request(method, url, body) {
  const init = { method, headers: {} };
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
  put: (url, body) => request("PUT", url, body),
  del: (url) => request("DELETE", url),
  catalog: (kind) => request("GET", `/api/catalog/${kind}`),
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
