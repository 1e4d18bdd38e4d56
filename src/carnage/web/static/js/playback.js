// Playing out what happened since the last view, step by step, for everyone watching: the
// template laid, the skid dice, the slide, the move and the shots of every activation (bots,
// the opponent, the hot-seat partner, spectators and the replay). The pace is the player's:
// skip, fast or slow (kept in localStorage).
import { diceRow } from "./dice.js";
import { fill, h } from "./util.js";

export const PACES = { skip: 0, fast: 450, slow: 1200 };
const KEY = "carnage.pace";

export function getPace() {
  try {
    const p = localStorage.getItem(KEY);
    if (p && p in PACES) return p;
  } catch { /* optional */ }
  return "fast";
}

export function setPace(p) {
  try { localStorage.setItem(KEY, p); } catch { /* optional */ }
}

/** The pace picker: three buttons, the current one pressed. */
export function paceControl(onChange = () => {}) {
  const box = h("div.pace", { role: "group", "aria-label": "pace of the moves played out" },
    h("span.muted.small", "Moves: "));
  const draw = () => {
    for (const b of box.querySelectorAll("button")) b.classList.toggle("on", b.dataset.pace === getPace());
  };
  for (const [p, label] of [["skip", "Skip"], ["fast", "Fast"], ["slow", "Slow"]]) {
    box.append(h("button.small", {
      type: "button", dataset: { pace: p }, title: `Play others' moves out: ${label.toLowerCase()}`,
      onclick: () => { setPace(p); draw(); onChange(p); },
    }, label));
  }
  draw();
  return box;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const VISIBLE = new Set(["template", "touch_it_use_it", "roll", "skid", "move", "forced_move", "pivot",
  "declare_attack", "attack_hits", "collision", "wrecked", "activation", "finish_line"]);

export class Playback {
  /**
   * @param board the Board
   * @param tray an element over the board for the caption and the dice
   */
  constructor(board, tray) {
    this.board = board;
    this.tray = tray;
    this.skipping = false;
    this.running = false;
  }

  skip() { this.skipping = true; }

  /**
   * Play ``events`` (the engine's, with their ``lines`` as shown) from ``before`` to ``after``.
   * Resolves when done (at once when the pace is skip).
   */
  async play(before, after, events, lines) {
    const pace = PACES[getPace()];
    if (!pace || !before || !events.length) return;
    const text = new Map(lines.map((l) => [l.seq, l]));
    const stage = structuredClone(before);
    stage.pending = null;
    const byId = new Map(stage.vehicles.map((v) => [v.id, v]));
    this.running = true;
    this.skipping = false;
    document.body.dataset.playing = "1";
    this.tray.classList.remove("hidden");
    try {
      for (const e of events) {
        if (this.skipping || PACES[getPace()] === 0) break;
        if (!VISIBLE.has(e.kind)) continue;
        const wait = PACES[getPace()];
        const d = e.data || {};
        const line = text.get(e.seq);
        const vid = d.vehicle || d.attacker || null;
        const caption = line ? String(line.text).replace(/\s*\(p\.\d+\)$/, "") : e.kind;
        if (e.kind === "activation") {
          this.board.setFocus(vid, []);
          this.show(caption, null);
          await sleep(wait / 2);
        } else if (e.kind === "template") {
          this.board.showTemplate(vid, { id: d.template, mirror: Boolean(d.mirror), reverse: Boolean(d.reverse) }, { keep: false });
          this.show(caption, null);
          await sleep(wait);
        } else if (e.kind === "roll" || e.kind === "skid") {
          if (!line || !line.dice) continue;
          this.show(caption, line.dice);
          await sleep(wait);
        } else if (e.kind === "move" || e.kind === "forced_move" || e.kind === "pivot") {
          const v = byId.get(vid);
          if (!v) continue;
          if (typeof d.x === "number") { v.x = d.x; v.y = d.y; }
          if (typeof d.heading === "number") v.heading = d.heading;
          this.show(caption, null);
          this.board.update(stage, { animate: true });
          await sleep(Math.max(wait, this.board.tweenMs || 0));
          this.board.clearOverlays();
        } else if (e.kind === "declare_attack") {
          this.board.showShots([], d.target ? [d.target] : []);
          this.show(caption, null);
          await sleep(wait);
        } else {
          this.show(caption, null);
          await sleep(wait / 2);
        }
      }
    } finally {
      this.board.clearOverlays();
      this.tray.classList.add("hidden");
      this.running = false;
      delete document.body.dataset.playing;
    }
  }

  show(caption, dice) {
    fill(this.tray,
      h("div.caption", caption),
      dice ? diceRow(dice) : null,
      h("button.small.skip-playback", { type: "button", onclick: () => this.skip() }, "Skip"));
  }
}
