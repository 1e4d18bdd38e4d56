// Replay: step forward and back through a game's views, one per decision.
import { api } from "./api.js";
import { Board } from "./board.js";
import { fill, h, humanise } from "./util.js";
import { LogView } from "./log.js";
import { scoreboardNode } from "./objectives.js";
import { Playback, getPace, paceControl } from "./playback.js";
import { colourOf, playerName, renderDashboards, renderPlayers, statusLine } from "./view.js";

const gid = decodeURIComponent(window.location.pathname.split("/")[2] || "");
const seatToken = new URLSearchParams(window.location.search).get("token");
const seatQuery = seatToken ? `token=${encodeURIComponent(seatToken)}` : ""; // this seat's secrets
const board = new Board(document.getElementById("board"));
const log = new LogView(document.getElementById("log"));
const playback = new Playback(board, document.getElementById("playback"));
const state = { steps: [], logs: [], at: 0, timer: null };

async function show(i, animate = true) {
  if (!state.steps.length) return;
  const n = Math.max(0, Math.min(state.steps.length - 1, i));
  const prev = state.at;
  state.at = n;
  const view = state.steps[n];
  if (animate && n === prev + 1 && getPace() !== "skip" && state.events) {
    // One step forward: play out what the step's choice set off, as the table did.
    const seqs = new Set((view.log || []).map((l) => l.seq));
    const evs = state.events.filter((e) => seqs.has(e.seq));
    log.upTo(state.lines, state.lastSeq[n]);
    await playback.play(state.steps[prev], view, evs, view.log || []);
    if (state.at !== n) return;
  }
  board.update(view, { animate: animate && Math.abs(n - prev) === 1 });
  board.setFocus(view.pending ? view.pending.vehicle : null, []);
  fill(document.getElementById("game-status"), statusLine(view));
  fill(document.getElementById("turn"), replayLine(n, state.steps.length - 1, state.steps[state.steps.length - 1]));
  renderPlayers(document.getElementById("players"), { ...view, your_seat: null });
  const score = document.getElementById("scoreboard");
  if (score) {
    score.hidden = !view.scoreboard;
    fill(score, scoreboardNode(view.scoreboard, (seat) => colourOf(view, seat), view.report));
  }
  renderDashboards(document.getElementById("dashboards"), view, { activeId: view.pending ? view.pending.vehicle : null });
  log.upTo(state.lines, state.lastSeq[n]);
  document.getElementById("scrub").value = String(n);
  document.getElementById("step-label").textContent = `${n} / ${state.steps.length - 1}`;
  const p = view.pending;
  fill(document.getElementById("step-decision"),
    p ? [h("b", `${playerName(view, p.seat)} next: `), p.prompt, h("span.muted", ` (${p.rule || humanise(p.source)}${p.page ? `, p.${p.page}` : ""})`)]
      : view.status === "finished" ? h("b", view.outcome_reason || "Game over") : "");
  document.getElementById("download-log").href = `/api/games/${encodeURIComponent(gid)}/log?format=text${seatQuery ? `&${seatQuery}` : ""}`;
  document.body.dataset.step = String(n);
  document.getElementById("back").disabled = n === 0;
  document.getElementById("first").disabled = n === 0;
  document.getElementById("forward").disabled = n === state.steps.length - 1;
  document.getElementById("last").disabled = n === state.steps.length - 1;
}

/** The header of a replay: that it is one, the step shown of how many, and how the game
 * ended (never "Waiting for ...": nobody is waited for in a replay). */
export function replayLine(step, total, last) {
  const ended = last && last.status === "finished";
  const result = !ended ? "the game was not over when this replay was made"
    : last.winner === null || last.winner === undefined ? "it ended in a draw"
      : `${playerName(last, last.winner)} won`;
  return [h("span.badge.replay", "Replay"), " ", h("b", `step ${step} of ${total}`), h("span.muted", ` · ${result}`)];
}

function toggle() {
  const btn = document.getElementById("play");
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = null;
    btn.textContent = "▶ Play";
    return;
  }
  if (state.at >= state.steps.length - 1) show(0, false);
  btn.textContent = "Pause";
  const next = async () => {
    if (!state.timer) return;
    if (state.at >= state.steps.length - 1) { toggle(); return; }
    await show(state.at + 1);
    if (state.timer) state.timer = setTimeout(next, 400);
  };
  state.timer = setTimeout(next, 100);
}

async function main() {
  document.getElementById("first").addEventListener("click", () => show(0, false));
  document.getElementById("back").addEventListener("click", () => show(state.at - 1));
  document.getElementById("forward").addEventListener("click", () => show(state.at + 1));
  document.getElementById("last").addEventListener("click", () => show(state.steps.length - 1, false));
  document.getElementById("play").addEventListener("click", toggle);
  document.getElementById("scrub").addEventListener("input", (e) => show(Number(e.target.value), false));
  document.getElementById("zoom-in").addEventListener("click", () => board.zoomBy(1.4));
  document.getElementById("zoom-out").addEventListener("click", () => board.zoomBy(1 / 1.4));
  document.getElementById("zoom-fit").addEventListener("click", () => board.resetZoom());
  document.getElementById("rotate").addEventListener("click", () => board.setRotation(!board.isRotated()));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === "ArrowRight") show(state.at + 1);
    else if (e.key === "ArrowLeft") show(state.at - 1);
    else if (e.key === "Home") show(0, false);
    else if (e.key === "End") show(state.steps.length - 1, false);
    else if (e.key === " ") { e.preventDefault(); toggle(); }
  });
  document.getElementById("pace").append(paceControl((p) => { if (p === "skip") playback.skip(); }));
  try {
    const [data, events] = await Promise.all([
      api.get(`/api/games/${encodeURIComponent(gid)}/replay${seatQuery ? `?${seatQuery}` : ""}`),
      api.get(`/api/games/${encodeURIComponent(gid)}/events${seatQuery ? `?${seatQuery}` : ""}`),
    ]);
    state.events = events;
    state.steps = data.steps || [];
    // Each step carries the events of that step; the log shown is everything up to it.
    state.lines = state.steps.flatMap((v) => v.log || []);
    let last = -1;
    state.lastSeq = state.steps.map((v) => {
      for (const l of v.log || []) last = Math.max(last, l.seq);
      return last;
    });
    document.getElementById("scrub").max = String(Math.max(0, state.steps.length - 1));
    const lastView = state.steps[state.steps.length - 1] || {};
    document.title = `Carnage — replay${lastView.scenario ? ` of ${humanise(lastView.scenario)}` : ""}`;
    show(0, false);
  } catch (e) {
    fill(document.getElementById("replay-errors"), h("li", e.message));
  }
  document.body.dataset.ready = "1";
}

main();
