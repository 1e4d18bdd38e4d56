// The dice pad: the faces of real dice rolled at the table, entered one die at a time (tap the
// face each die shows, then confirm), for a `table_dice` decision (kernel/table_dice.py). The
// companion page and the regular table share it. The pad updates itself as faces are tapped;
// `entered` (an array the caller may keep) survives a redraw of the same decision.
import { h } from "./util.js";

/** How many dice and of how many faces a `table_dice` decision wants: its first listed
 * option is every die on its highest face ("6,6"). */
export function padShape(p) {
  const first = String(p.options[0].value).split(",");
  return { n: first.length, sides: Number(first[0]) };
}

/** The pad for pending decision `p`; `send(faces)` gets the faces joined by commas. */
export function dicePad(p, send, entered = []) {
  const { n, sides } = padShape(p);
  const slots = h("div.slots");
  const faces = h("div.faces");
  const done = h("button.send", { type: "button", onclick: () => { if (entered.length === n) send(entered.join(",")); } },
    n === 1 ? "Enter the die" : "Enter the dice");
  const draw = () => {
    slots.replaceChildren(...Array.from({ length: n }, (_, i) => h("span", {
      class: `slot${i < entered.length ? " filled" : ""}`,
      "aria-label": i < entered.length ? `die ${i + 1}: ${entered[i]}` : `die ${i + 1}: not yet entered`,
    }, i < entered.length ? String(entered[i]) : "")));
    for (const b of faces.children) b.disabled = entered.length >= n;
    done.disabled = entered.length !== n;
  };
  for (let f = 1; f <= sides; f++) {
    faces.append(h("button", {
      type: "button", dataset: { face: f }, "aria-label": `face ${f}`,
      onclick: () => { if (entered.length < n) { entered.push(f); draw(); } },
    }, String(f)));
  }
  draw();
  return h("div.pad", { dataset: { n, sides } },
    h("p.small", n === 1 ? "Tap the face the die shows." : `Tap the face of each of the ${n} dice you rolled (in any order).`),
    slots, faces,
    h("div.row",
      h("button.clear", { type: "button", onclick: () => { entered.length = 0; draw(); } }, "Clear"),
      done));
}
