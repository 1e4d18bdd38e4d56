// The chat between a game's seats, beside the table (GET/POST /api/games/{id}/chat). A seat
// reads and writes it and may make it public; a spectator reads it only while it is public.
// New messages come as the game's websocket's {"type": "chat"} frames (the table passes them
// to onFrame) and, should the socket be down, by looking again every few seconds. Players are
// shown the game's spectator link (read-only: no seat token in it).
import { api, ApiError } from "./api.js";
import { copyText, fill, h, seatColour } from "./util.js";

const LIMIT = 300; // characters in a message (web/chat.py MAX_CHARS)
const LOOK_AGAIN_MS = 8000;

export class ChatPanel {
  constructor({ gid, token = null }) {
    this.gid = gid;
    this.token = token || null;
    this.seen = new Map(); // id -> message
    this.public = false;
    this.readable = Boolean(this.token);
    this.el = h("section.chat.panel#chat", { "aria-label": "chat" });
    this.list = h("ol.chat-lines#chat-lines", { "aria-live": "polite" });
    this.status = h("p.chat-status.small.muted#chat-status");
    this.error = h("p.chat-error.error#chat-error", { role: "alert" });
    this.render();
    setInterval(() => this.refresh(), LOOK_AGAIN_MS);
  }

  url(extra = "") {
    const q = [this.token ? `token=${encodeURIComponent(this.token)}` : "", extra].filter(Boolean).join("&");
    return `/api/games/${encodeURIComponent(this.gid)}/chat${q ? `?${q}` : ""}`;
  }

  /** Read the whole chat again (on load, when the socket (re)opens, and now and then). */
  async refresh() {
    try {
      const got = await api.get(this.url());
      this.readable = true;
      this.public = got.public;
      this.setBy = got.set_by;
      this.add(got.messages);
    } catch (e) {
      if (e instanceof ApiError && e.status === 403 && !this.token) this.readable = false;
      else return;
    }
    this.render();
  }

  /** A {"type": "chat"} frame of the game's websocket. */
  onFrame(msg) {
    this.readable = msg.readable !== false;
    if (typeof msg.public === "boolean" && msg.public !== this.public) {
      this.public = msg.public;
      this.refresh(); // who changed it
    }
    this.add(msg.messages || []);
    this.render();
  }

  add(messages) {
    let fresh = false;
    for (const m of messages) {
      if (!this.seen.has(m.id)) fresh = true;
      this.seen.set(m.id, m);
    }
    if (fresh) this.drawLines();
  }

  drawLines() {
    const lines = [...this.seen.values()].sort((a, b) => a.id - b.id);
    fill(this.list, lines.map((m) => h("li", { dataset: { id: m.id, seat: m.seat } },
      h("b.who", { style: { color: seatColour(m.seat) } }, m.name), " ",
      h("span.said", m.text),
      h("time.small.muted", { datetime: m.at, title: new Date(m.at).toLocaleString() },
        ` ${new Date(m.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`))));
    this.list.scrollTop = this.list.scrollHeight;
  }

  async send(input, button) {
    const text = input.value;
    if (!text.trim()) return;
    button.disabled = true;
    this.error.textContent = "";
    try {
      const m = await api.post(`/api/games/${encodeURIComponent(this.gid)}/chat`, { token: this.token, text });
      input.value = "";
      this.add([m]);
    } catch (e) {
      this.error.textContent = e.message;
    } finally {
      button.disabled = false;
      input.focus();
    }
  }

  async setPublic(value) {
    this.error.textContent = "";
    try {
      const got = await api.put(`/api/games/${encodeURIComponent(this.gid)}/chat/public`, { token: this.token, public: value });
      this.public = got.public;
      this.setBy = got.set_by;
    } catch (e) {
      this.error.textContent = e.message;
    }
    this.render();
  }

  /** The panel's parts, made once (so a message being typed survives every update). */
  build() {
    this.badge = h("span.badge.small#chat-visibility");
    this.privateNote = h("p.muted.small#chat-private", "The players keep their chat private.");
    this.setByNote = h("p.small.muted#chat-set-by");
    const parts = [h("div.chat-head", h("b", "Chat"), " ", this.badge), this.privateNote, this.list];
    if (this.token) {
      const input = h("input#chat-text", {
        type: "text", maxlength: String(LIMIT), placeholder: "Say something to the table…",
        "aria-label": "message", autocomplete: "off",
      });
      const button = h("button.primary.small#chat-send", { type: "submit" }, "Send");
      const form = h("form.chat-form.row#chat-form", {
        onsubmit: (ev) => { ev.preventDefault(); this.send(input, button); },
      }, input, button);
      this.toggle = h("input#chat-public", { type: "checkbox" });
      this.toggle.addEventListener("change", () => this.setPublic(this.toggle.checked));
      const link = `${window.location.origin}/games/${encodeURIComponent(this.gid)}`;
      const copy = h("button.small#copy-spectate", {
        type: "button",
        onclick: async () => { copy.textContent = (await copyText(link)) ? "Copied" : "Copy it by hand"; },
      }, "Copy");
      parts.push(form, this.error,
        h("label.small.chat-public", this.toggle, " Let spectators read the chat"),
        h("div.spectate.small.row", h("span", "Spectator link (watch only):"),
          h("input#spectate-link", { type: "text", readOnly: true, value: link, "aria-label": "spectator link" }), copy));
    } else {
      parts.push(h("p.muted.small#chat-watching", "You are watching: only the players write here."));
    }
    parts.push(this.setByNote);
    fill(this.el, parts);
  }

  render() {
    if (!this.badge) this.build();
    this.badge.className = `badge small${this.public ? " live" : ""}`;
    this.badge.textContent = this.public ? "public: spectators read it" : "private: players only";
    this.privateNote.hidden = this.readable;
    this.list.hidden = !this.readable;
    if (this.toggle) this.toggle.checked = this.public;
    this.setByNote.textContent = this.setBy ? `${this.public ? "Made public" : "Made private"} by ${this.setBy}.` : "";
  }
}

/** Mount the chat panel before ``before`` (the log) and read the chat. */
export function mountChat({ gid, token, before }) {
  const panel = new ChatPanel({ gid, token });
  if (before && before.parentNode) before.parentNode.insertBefore(panel.el, before);
  panel.refresh();
  return panel;
}
