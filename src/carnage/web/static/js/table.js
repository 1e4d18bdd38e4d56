// The table page of every ruleset: asks the game which ruleset it is and which board view
// that ruleset declares (Ruleset.table.board_view, in the game's view), lays out that board's
// page (static/tables/<board_view>.html) and loads its module (js/tables/<board_view>.js),
// which plays the game from there. The shell knows no ruleset by name.
import { api } from "./api.js";
import { qs } from "./util.js";

const gid = decodeURIComponent(window.location.pathname.split("/")[2] || "");
const token = qs("token");
const BOARD = /^[a-z][a-z0-9-]*$/;
// When the game cannot be read (a wrong link, a game deleted), the tabletop board is laid out
// and says why in its own words, as the table always did.
const FALLBACK_BOARD = "refuelled";

function say(message) {
  const el = document.getElementById("shell-status");
  if (el) el.textContent = message;
}

async function lay(boardView) {
  const r = await fetch(`/static/tables/${boardView}.html`);
  if (!r.ok) throw new Error(`the table of this ruleset is missing (static/tables/${boardView}.html)`);
  const doc = new DOMParser().parseFromString(await r.text(), "text/html");
  const have = new Set([...document.querySelectorAll("link[rel=stylesheet]")].map((l) => l.getAttribute("href")));
  const styles = [...doc.querySelectorAll("link[rel=stylesheet]")].filter((l) => !have.has(l.getAttribute("href")))
    .map((l) => new Promise((done) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = l.getAttribute("href");
      link.onload = done;
      link.onerror = done;
      document.head.append(link);
    }));
  await Promise.all(styles);
  if (doc.title) document.title = doc.title;
  document.body.className = doc.body.className;
  document.body.replaceChildren(...[...doc.body.childNodes].map((n) => document.importNode(n, true)));
}

async function start() {
  let view = {};
  try {
    view = await api.get(`/api/games/${encodeURIComponent(gid)}${token ? `?token=${encodeURIComponent(token)}` : ""}`);
  } catch {
    view = {};
  }
  const boardView = view.board_view || FALLBACK_BOARD;
  if (!BOARD.test(boardView)) {
    say(`unknown board view ${boardView}`);
    return;
  }
  try {
    await lay(boardView);
    if (view.ruleset) document.body.dataset.ruleset = view.ruleset;
    document.body.dataset.boardView = boardView;
    await import(`./tables/${boardView}.js`);
  } catch (e) {
    say(e.message);
  }
}

start();
