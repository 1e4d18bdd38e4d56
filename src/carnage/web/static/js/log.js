// The event log panel: every line of the game (no cap). Lines are only ever appended (or the
// older ones fetched on demand and put in front), never redrawn; off-screen lines skip layout
// (content-visibility), so a long game scrolls as lightly as a short one. Rolls show their dice.
import { api } from "./api.js";
import { diceRow } from "./dice.js";
import { h } from "./util.js";

function lineEl(l) {
  const text = l.page ? String(l.text).replace(new RegExp(`\\s*\\(p\\.${l.page}\\)$`), "") : l.text;
  return h("li", { dataset: { seq: l.seq, kind: l.kind }, class: `log-${l.kind}` },
    h("span.cite", { title: `${l.rule || l.source}${l.page ? `, Refuelled p.${l.page}` : ""}` },
      h("span.rule", l.rule || l.source), l.page ? h("span.page", `p.${l.page}`) : null),
    h("span.text", text, l.dice ? diceRow(l.dice, { small: true }) : null));
}

export class LogView {
  /** @param {HTMLOListElement} el */
  constructor(el, { gid = null, token = null } = {}) {
    this.el = el;
    this.gid = gid;
    this.token = token; // a seat sees its own secrets in the log (web/redact.py)
    this.items = new Map(); // seq -> li
    this.first = null;
    this.last = -1;
    this.pinned = true;
    this.loadingOlder = false;
    el.addEventListener("scroll", () => {
      if (this.auto) return;
      this.pinned = el.scrollHeight - el.scrollTop - el.clientHeight < 30;
      if (el.scrollTop < 40) this.loadOlder();
    });
    new ResizeObserver(() => { if (this.pinned) this.toEnd(); }).observe(el);
  }

  toEnd() {
    this.auto = true;
    this.el.scrollTop = this.el.scrollHeight;
    requestAnimationFrame(() => { this.auto = false; });
  }

  /** Add the lines not shown yet (the newest last). */
  add(lines) {
    const fresh = lines.filter((l) => !this.items.has(l.seq)).sort((a, b) => a.seq - b.seq);
    if (!fresh.length) return;
    const head = [];
    const tail = [];
    for (const l of fresh) {
      const li = lineEl(l);
      this.items.set(l.seq, li);
      if (l.seq > this.last) {
        tail.push(li);
        this.last = l.seq;
      } else if (this.first === null || l.seq < this.first) head.push(li);
      else this._insert(li, l.seq);
    }
    this.first = Math.min(...this.items.keys());
    this.el.prepend(...head);
    this.el.append(...tail);
    this.el.dataset.count = String(this.items.size);
    this.el.dataset.first = String(this.first);
    if (this.pinned) this.toEnd();
  }

  _insert(li, seq) {
    for (const node of this.el.children) {
      if (Number(node.dataset.seq) > seq) {
        this.el.insertBefore(li, node);
        return;
      }
    }
    this.el.append(li);
  }

  /** Show only the lines up to ``seq`` (the replay), adding ``lines`` first. */
  upTo(lines, seq) {
    for (const [s, li] of [...this.items]) {
      if (s > seq) {
        li.remove();
        this.items.delete(s);
      }
    }
    this.last = Math.max(-1, ...this.items.keys());
    this.add(lines.filter((l) => l.seq <= seq));
    if (!this.items.size) this.first = null;
  }

  /** Fetch the lines before the first one shown (the live view carries the newest only). */
  async loadOlder() {
    if (!this.gid || this.loadingOlder || this.first === null || this.first <= 0) return;
    this.loadingOlder = true;
    try {
      const before = this.el.scrollHeight;
      const lines = await api.get(`/api/games/${encodeURIComponent(this.gid)}/log${this.token ? `?token=${encodeURIComponent(this.token)}` : ""}`);
      this.add(lines.filter((l) => l.seq < this.first));
      this.el.scrollTop += this.el.scrollHeight - before;
    } catch { /* the newest lines stay shown */ } finally {
      this.loadingOlder = false;
    }
  }
}
