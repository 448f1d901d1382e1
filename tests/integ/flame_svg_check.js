// Exercise the script of a perf-prof SVG flame graph in node, with a tiny
// stand-in DOM: hover, zoom, reset, search.  Prints "ok"/"not ok" lines.
// usage: node flame_svg_check.js FILE.svg ZOOM_FRAME SEARCH_REGEX EXPECT_PCT
"use strict";
const fs = require("fs");
const [file, zoomName, searchRe, expectPct] = process.argv.slice(2);
const svg = fs.readFileSync(file, "utf8");
let fail = 0;
function check(d, c) { console.log((c ? "ok - " : "not ok - ") + d); if (!c) fail++; }
function unxml(s) {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'").replace(/&amp;/g, "&");
}
function el(tag, attrs, text) {
  const e = { tag, attrs: Object.assign({}, attrs), textContent: text || "", style: {},
    children: [], parent: null, listeners: {} };
  const cls = new Set((attrs.class || "").split(/\s+/).filter(Boolean));
  e.classList = { add: (c) => cls.add(c), remove: (c) => cls.delete(c), contains: (c) => cls.has(c) };
  e.getAttribute = (k) => (k in e.attrs ? e.attrs[k] : null);
  e.setAttribute = (k, v) => { e.attrs[k] = String(v); };
  e.addEventListener = (t, f) => { e.listeners[t] = f; };
  e.querySelector = (t) => e.children.find((c) => c.tag === t) || null;
  e.closest = (t) => { for (let p = e; p; p = p.parent) if (p.tag === t) return p; return null; };
  return e;
}
const m = /<svg[^>]*width="(\d+)"/.exec(svg);
const root = el("svg", { width: m[1] });
const byId = {};
for (const id of ["details", "matched", "unzoom", "search", "title"]) {
  const r = new RegExp('<text id="' + id + '"([^>]*)>([^<]*)</text>').exec(svg);
  const cls = /class="([^"]*)"/.exec(r ? r[1] : "");
  byId[id] = el("text", { class: cls ? cls[1] : "" }, r ? unxml(r[2]) : "");
}
const frames = el("g", { id: "frames" });
byId.frames = frames;
const re = /<g><title>([^<]*)<\/title><rect ([^>]*)\/><text ([^>]*)>([^<]*)<\/text><\/g>/g;
let f;
while ((f = re.exec(svg))) {
  const g = el("g", {});
  const attrs = {};
  f[2].replace(/(\w+)="([^"]*)"/g, (_, k, v) => { attrs[k] = v; });
  const t = el("title", {}, unxml(f[1])), r = el("rect", attrs), tx = el("text", {}, unxml(f[4]));
  for (const c of [t, r, tx]) { c.parent = g; g.children.push(c); }
  g.parent = frames;
  frames.children.push(g);
}
const winL = {};
global.document = { documentElement: root, getElementById: (id) => byId[id] || null };
global.window = { addEventListener: (t, fn) => { winL[t] = fn; } };
global.prompt = () => searchRe;
global.alert = (s) => { throw new Error("alert: " + s); };
const script = /<script[^>]*><!\[CDATA\[([\s\S]*?)\]\]><\/script>/.exec(svg)[1];
require("vm").runInThisContext(script);
global.init();
check("frames parsed (" + frames.children.length + ")", frames.children.length > 1);
const find = (name) => frames.children.find((g) => g.children[0].textContent.startsWith(name + " ("));
const fire = (g, type) => frames.listeners[type]({ target: g.children[1] });
const z = find(zoomName);
check("frame to zoom exists: " + zoomName, !!z);
if (z) {
  fire(z, "mouseover");
  check("hover shows details", byId.details.textContent === z.children[0].textContent);
  const orig = frames.children.map((g) => g.children[1].getAttribute("width"));
  fire(z, "click");
  const w = parseFloat(z.children[1].getAttribute("width"));
  check("zoomed frame fills the width (" + w + ")", Math.abs(w - (parseFloat(m[1]) - 20)) < 0.1);
  check("zoomed label is the full name", z.children[2].textContent === zoomName);
  const hidden = frames.children.filter((g) => g.style.display === "none").length;
  const anc = frames.children.filter((g) => g.classList.contains("anc")).length;
  check("other frames hidden (" + hidden + "), ancestors marked (" + anc + ")", hidden > 0 && anc > 0);
  check("reset button shown", !byId.unzoom.classList.contains("hide"));
  byId.unzoom.listeners.click();
  check("reset shows everything", frames.children.every((g) => g.style.display !== "none"));
  check("reset restores width",
    frames.children.every((g, i) => g.children[1].getAttribute("width") === orig[i]));
}
let prevented = false;
winL.keydown({ ctrlKey: true, key: "f", preventDefault: () => { prevented = true; } });
check("ctrl-f searches", prevented);
check("matched: '" + byId.matched.textContent + "'", byId.matched.textContent.startsWith("Matched: " + expectPct + "%"));
const pink = frames.children.filter((g) => g.children[1].getAttribute("fill") === "rgb(230,0,230)");
check("matches highlighted (" + pink.length + ")", pink.length > 0 &&
  pink.every((g) => new RegExp(searchRe).test(g.children[0].textContent)));
byId.search.listeners.click();
check("search reset", byId.matched.textContent.trim() === "" &&
  frames.children.every((g) => g.children[1].getAttribute("fill") !== "rgb(230,0,230)"));
console.log(fail ? "svg script: FAILED" : "svg script: passed");
process.exit(fail ? 1 : 0);
