// Movement template shapes, for drawing a template on the table while a player chooses one.
// The engine measures every move itself; this only draws. The numbers mirror the provisional
// template set in src/carnage/geometry/data/templates.yaml (a test keeps the two equal).
// Units: mm and degrees; x right, y up, headings anticlockwise from +x.

/* TEMPLATE-DATA-BEGIN */
export const TEMPLATE_SET = {
  "width": 35,
  "movement": {
    "short_straight": {"segments": [{"straight": 60}], "slide_exit": 60},
    "medium_straight": {"segments": [{"straight": 120}], "slide_exit": 120},
    "long_straight": {"segments": [{"straight": 180}], "slide_exit": 180},
    "gentle": {"segments": [{"arc": 30, "radius": 230}], "slide_exit": 0.5},
    "turn": {"segments": [{"arc": 60, "radius": 115}], "slide_exit": 0.5},
    "hard": {"segments": [{"arc": 90, "radius": 60}], "slide_exit": 0.5},
    "hairpin": {"segments": [{"arc": 180, "radius": 40}], "slide_exit": 0.5},
    "veer": {"segments": [{"straight": 40}, {"arc": 30, "radius": 150}], "slide_exit": 0.5},
    "swerve": {"segments": [{"arc": 30, "radius": 120}, {"arc": -30, "radius": 120}], "slide_exit": 0.5}
  },
  "ranges": {"short": 60, "medium": 120, "long": 180, "double": 300}
};
/* TEMPLATE-DATA-END */

const RAD = Math.PI / 180;

/**
 * A template's use in the gear it is chosen in, in words (the engine's option label ends in
 * its letter: [T] trivial, [P] permitted, [H] hazardous, [-] not permitted). One map for the
 * table's list, its board picker and the companion.
 */
export const TEMPLATE_USE = { T: "trivial", P: "permitted", H: "hazardous", "-": "not permitted" };

/** An engine template label split into its name and its use letter (null: no letter). */
export function splitUseLabel(label) {
  const m = /\s*\[([TPH-])\]\s*$/.exec(String(label));
  return m ? [String(label).slice(0, m.index), m[1]] : [String(label), null];
}

/** Parse an engine template choice value: "turn", "turn/left", "turn/left/reverse". */
export function parseTemplateValue(value) {
  const [id, ...flags] = String(value).split("/");
  return { id, mirror: flags.includes("left"), reverse: flags.includes("reverse") };
}

export function isStraight(id) {
  const spec = TEMPLATE_SET.movement[id];
  return Boolean(spec) && spec.segments.every((s) => s.straight !== undefined);
}

/**
 * The template laid against a vehicle body {x, y, heading, length}: at the centre of its front
 * edge (rear edge when reversing), running along the direction of travel. ``mirror`` turns it
 * over for a left turn. Returns {outline: [[x, y]...], end: {x, y, heading}, final: pose of the
 * vehicle placed past the end, unobstructed} or null for an unknown template.
 */
export function layTemplate(body, id, { mirror = false, reverse = false } = {}) {
  const spec = TEMPLATE_SET.movement[id];
  if (!spec) return null;
  const h0 = body.heading * RAD;
  const sgn = reverse ? -1 : 1;
  const sx = body.x + sgn * (body.length / 2) * Math.cos(h0);
  const sy = body.y + sgn * (body.length / 2) * Math.sin(h0);
  let x = sx;
  let y = sy;
  let h = h0 + (reverse ? Math.PI : 0);
  const flip = mirror ? 1 : -1; // right way up, a positive arc turns clockwise
  const centre = [[x, y, h]];
  for (const seg of spec.segments) {
    if (seg.straight !== undefined) {
      x += seg.straight * Math.cos(h);
      y += seg.straight * Math.sin(h);
      centre.push([x, y, h]);
      continue;
    }
    const k = seg.arc > 0 ? flip : -flip;
    const r = seg.radius;
    const cx = x - k * r * Math.sin(h);
    const cy = y + k * r * Math.cos(h);
    const a0 = Math.atan2(y - cy, x - cx);
    const sweep = Math.abs(seg.arc) * RAD;
    const steps = Math.max(2, Math.ceil(Math.abs(seg.arc) / 3));
    for (let i = 1; i <= steps; i++) {
      const a = a0 + k * sweep * (i / steps);
      centre.push([cx + r * Math.cos(a), cy + r * Math.sin(a), a + (k * Math.PI) / 2]);
    }
    [x, y, h] = centre[centre.length - 1];
  }
  const w = TEMPLATE_SET.width / 2;
  const left = centre.map(([px, py, ph]) => [px - Math.sin(ph) * w, py + Math.cos(ph) * w]);
  const right = centre.map(([px, py, ph]) => [px + Math.sin(ph) * w, py - Math.cos(ph) * w]);
  const outline = right.concat(left.reverse());
  const fx = x + (body.length / 2) * Math.cos(h);
  const fy = y + (body.length / 2) * Math.sin(h);
  const finalHeading = (h / RAD + (reverse ? 180 : 0)) % 360;
  return {
    outline,
    centre: centre.map(([px, py]) => [px, py]),
    end: { x, y, heading: h / RAD },
    final: { x: fx, y: fy, heading: (finalHeading + 360) % 360 },
  };
}

/** Corners of a vehicle body (or any oriented rectangle) as [[x, y] x4]. */
export function bodyCorners(p, length, width) {
  const c = Math.cos(p.heading * RAD);
  const s = Math.sin(p.heading * RAD);
  const hl = length / 2;
  const hw = width / 2;
  return [[hl, hw], [hl, -hw], [-hl, -hw], [-hl, hw]].map(([lx, ly]) => [
    p.x + lx * c - ly * s,
    p.y + lx * s + ly * c,
  ]);
}
