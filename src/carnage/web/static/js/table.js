// The table page of every ruleset: asks the game which ruleset it is, asks the registry
// (GET /api/rulesets) where that ruleset's board is (Ruleset.table.board: its page, module and
// styles, shipped in its game package), lays out that board's page, adds its styles and loads
// its module, which plays the game from there. The shell knows no ruleset by name.
import { api } from "./api.js";
import { qs } from "./util.js";

const gid = decodeURIComponent(window.location.pathname.split("/")[2] || "");
const token = qs("token");

function say(message) {
  const el = document.getElementById("shell-status");
  if (el) el.textContent = message;
}

function addStyle(href) {
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.getAttribute("href") === href)) {
    return Promise.resolve();
  }
  return new Promise((done) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = done;
    link.onerror = done;
    document.head.append(link);
  });
}

async function lay(board) {
  const r = await fetch(board.markup);
  if (!r.ok) throw new Error(`the table of this ruleset is missing (${board.markup})`);
  const doc = new DOMParser().parseFromString(await r.text(), "text/html");
  const hrefs = [...doc.querySelectorAll("link[rel=stylesheet]")].map((l) => l.getAttribute("href"));
  await Promise.all([...hrefs, ...(board.styles || [])].map(addStyle));
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
  let rulesets;
  try {
    rulesets = await api.get("/api/rulesets");
  } catch (e) {
    say(`cannot read the rulesets (${e.message})`);
    return;
  }
  // When the game cannot be read (a wrong link, a game deleted), the registry's first board is
  // laid out and says why in its own words, as the table always did.
  const rs = view.ruleset ? rulesets.find((r) => r.name === view.ruleset) : rulesets.find((r) => r.board);
  if (!rs) {
    say(`unknown ruleset ${view.ruleset}`);
    return;
  }
  if (!rs.board) {
    say(`${rs.title} has no table in the browser`);
    return;
  }
  try {
    await lay(rs.board);
    if (view.ruleset) document.body.dataset.ruleset = view.ruleset;
    if (view.board_view) document.body.dataset.boardView = view.board_view;
    await import(rs.board.module);
    await import("./nav.js"); // the site's navigation, on the board's own top bar
  } catch (e) {
    say(e.message);
  }
}

start();
