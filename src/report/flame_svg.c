// SPDX-License-Identifier: GPL-2.0
/*
 * Interactive SVG flame graph drawn from a frame trie.  The layout is done
 * here (root at the bottom, children left to right in name order, width by
 * weight); a small script in the file adds the tooltips' details line,
 * click to zoom, and regex search.  Labels are clipped here with the same
 * rule the script uses after a zoom, so the file reads well even where
 * scripts do not run (e.g. as an <img>).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/ftrie.h"
#include "util/xml.h"

#define SVG_W 1200
#define PAD 10
#define FRAME_H 16
#define TOP 48
#define BOTTOM 30
/* Glyph advance of a 12px monospace font: labels are clipped by character count. */
#define CHAR_W 7.2
/* Frames narrower than this fraction of the width are left out. */
#define MIN_FRAC 0.001

static const char script[] =
	"\"use strict\";\n"
	"var W, PAD = 10, CW = 7.2, E = 0.02, fr = [], rootY = 0, det, mat, unz, srch,\n"
	"    cur = null, re = null;\n"
	"function init() {\n"
	"  W = parseFloat(document.documentElement.getAttribute(\"width\"));\n"
	"  det = document.getElementById(\"details\");\n"
	"  mat = document.getElementById(\"matched\");\n"
	"  unz = document.getElementById(\"unzoom\");\n"
	"  srch = document.getElementById(\"search\");\n"
	"  var gs = document.getElementById(\"frames\").children;\n"
	"  for (var i = 0; i < gs.length; i++) {\n"
	"    var g = gs[i], r = g.querySelector(\"rect\");\n"
	"    var info = g.querySelector(\"title\").textContent, k = info.lastIndexOf(\" (\");\n"
	"    var f = { g: g, r: r, t: g.querySelector(\"text\"), info: info,\n"
	"      name: k < 0 ? info : info.slice(0, k), fill: r.getAttribute(\"fill\"),\n"
	"      x: parseFloat(r.getAttribute(\"x\")), w: parseFloat(r.getAttribute(\"width\")),\n"
	"      y: parseFloat(r.getAttribute(\"y\")) };\n"
	"    if (f.y > rootY) rootY = f.y;\n"
	"    g.fi = fr.length;\n"
	"    fr.push(f);\n"
	"  }\n"
	"  var box = document.getElementById(\"frames\");\n"
	"  box.addEventListener(\"mouseover\", function (e) {\n"
	"    var f = hit(e); if (f) det.textContent = f.info; });\n"
	"  box.addEventListener(\"mouseout\", function (e) {\n"
	"    if (hit(e)) det.textContent = cur ? \"Zoomed: \" + cur.info : \" \"; });\n"
	"  box.addEventListener(\"click\", function (e) { var f = hit(e); if (f) zoom(f); });\n"
	"  unz.addEventListener(\"click\", unzoom);\n"
	"  srch.addEventListener(\"click\", function () { if (re) clearSearch(); else ask(); });\n"
	"  window.addEventListener(\"keydown\", function (e) {\n"
	"    if ((e.ctrlKey || e.metaKey) && (e.key == \"f\" || e.key == \"F\")) {\n"
	"      e.preventDefault(); ask();\n"
	"    } else if (e.key == \"Escape\") { clearSearch(); unzoom(); }\n"
	"  });\n"
	"}\n"
	"function hit(e) {\n"
	"  var g = e.target.closest ? e.target.closest(\"g\") : null;\n"
	"  return g && g.fi !== undefined ? fr[g.fi] : null;\n"
	"}\n"
	"function place(f, x, w) {\n"
	"  f.g.style.display = \"\";\n"
	"  f.r.setAttribute(\"x\", x.toFixed(2));\n"
	"  f.r.setAttribute(\"width\", w.toFixed(2));\n"
	"  f.t.setAttribute(\"x\", (x + 3).toFixed(2));\n"
	"  var n = Math.floor((w - 6) / CW), s = f.name;\n"
	"  f.t.textContent = n < 3 ? \"\" : s.length <= n ? s : s.slice(0, n - 2) + \"..\";\n"
	"}\n"
	"function zoom(z) {\n"
	"  if (z.y >= rootY) { unzoom(); return; }\n"
	"  cur = z;\n"
	"  var s = (W - 2 * PAD) / z.w;\n"
	"  fr.forEach(function (f) {\n"
	"    if (f.y <= z.y && f.x >= z.x - E && f.x + f.w <= z.x + z.w + E) {\n"
	"      place(f, PAD + (f.x - z.x) * s, f.w * s);\n"
	"      f.g.classList.remove(\"anc\");\n"
	"    } else if (f.y > z.y && f.x <= z.x + E && f.x + f.w >= z.x + z.w - E) {\n"
	"      place(f, PAD, W - 2 * PAD);\n"
	"      f.g.classList.add(\"anc\");\n"
	"    } else {\n"
	"      f.g.style.display = \"none\";\n"
	"    }\n"
	"  });\n"
	"  unz.classList.remove(\"hide\");\n"
	"  det.textContent = \"Zoomed: \" + z.info;\n"
	"}\n"
	"function unzoom() {\n"
	"  cur = null;\n"
	"  fr.forEach(function (f) { place(f, f.x, f.w); f.g.classList.remove(\"anc\"); });\n"
	"  unz.classList.add(\"hide\");\n"
	"  det.textContent = \" \";\n"
	"}\n"
	"function ask() {\n"
	"  var s = prompt(\"Search frames (regular expression):\", re ? re.source : \"\");\n"
	"  if (s === null) return;\n"
	"  if (s === \"\") { clearSearch(); return; }\n"
	"  try { re = new RegExp(s); } catch (err) { alert(\"Bad expression: \" + err.message); "
	"return; }\n"
	"  var iv = [], sum = 0, end = -1;\n"
	"  fr.forEach(function (f) {\n"
	"    if (re.test(f.name)) {\n"
	"      f.r.setAttribute(\"fill\", \"rgb(230,0,230)\");\n"
	"      iv.push([f.x, f.x + f.w]);\n"
	"    } else {\n"
	"      f.r.setAttribute(\"fill\", f.fill);\n"
	"    }\n"
	"  });\n"
	/* Matches nest (a caller and its callee): count the union of their spans. */
	"  iv.sort(function (a, b) { return a[0] - b[0]; });\n"
	"  iv.forEach(function (v) {\n"
	"    if (v[1] > end) { sum += v[1] - Math.max(v[0], end); end = v[1]; }\n"
	"  });\n"
	"  mat.textContent = \"Matched: \" + (100 * sum / (W - 2 * PAD)).toFixed(1) + \"% (\" +\n"
	"    iv.length + \" frames)\";\n"
	"  srch.textContent = \"Reset Search\";\n"
	"}\n"
	"function clearSearch() {\n"
	"  re = null;\n"
	"  fr.forEach(function (f) { f.r.setAttribute(\"fill\", f.fill); });\n"
	"  mat.textContent = \" \";\n"
	"  srch.textContent = \"Search\";\n"
	"}\n";

static const char style[] = "text { font-family: monospace; font-size: 12px; fill: #000; }\n"
			    "#title { font-size: 17px; text-anchor: middle; }\n"
			    "#subtitle { fill: #555; text-anchor: middle; }\n"
			    ".btn { cursor: pointer; fill: #1a4d99; }\n"
			    "#matched { text-anchor: end; }\n"
			    ".hide { display: none; }\n"
			    "#frames g { cursor: pointer; }\n"
			    "#frames g:hover rect { stroke: #000; stroke-width: 0.5; }\n"
			    "#frames text { pointer-events: none; }\n"
			    ".anc rect { fill-opacity: 0.5; }\n";

/* "1,234,567" */
static void fmt_count(uint64_t v, char *buf)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v), j = 0;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = tmp[i];
	}
	buf[j] = '\0';
}

static bool has_suffix(const struct fname *nm, const char *suffix)
{
	size_t m = strlen(suffix);

	return nm->len >= m && memcmp(nm->s + nm->len - m, suffix, m) == 0;
}

/* "YYYY-MM-DD HH:MM:SS...", the interval frames of flame__interval. */
static bool is_timestamp(const struct fname *nm)
{
	static const char pat[] = "dddd-dd-dd dd:dd:dd";

	if (nm->len < sizeof(pat) - 1)
		return false;
	for (size_t i = 0; i < sizeof(pat) - 1; i++) {
		if (pat[i] == 'd' ? (nm->s[i] < '0' || nm->s[i] > '9') : nm->s[i] != pat[i])
			return false;
	}
	return true;
}

enum kind { K_USER, K_CXX, K_KERNEL, K_JIT, K_INLINE, K_META, K_SEP };

/* Deterministic per name, so that one function has one colour in every graph. */
static void frame_fill(const struct fname *nm, enum kind k, char *buf, size_t len)
{
	uint64_t h = nm->hash * 0x9e3779b97f4a7c15ULL;
	double a = (h >> 40 & 0xff) / 255.0, b = (h >> 48 & 0xff) / 255.0,
	       c = (h >> 56 & 0xff) / 255.0;
	int r, g, bl;

	switch (k) {
	case K_KERNEL: /* orange */
		r = 235 + 20 * a, g = 140 + 45 * b, bl = 20 * c;
		break;
	case K_CXX: /* yellow */
		r = 190 + 50 * a, g = 180 + 50 * a, bl = 40 + 60 * b;
		break;
	case K_JIT: /* green */
		r = 60 + 60 * a, g = 190 + 50 * b, bl = 60 + 50 * c;
		break;
	case K_INLINE: /* aqua */
		r = 80 + 50 * a, g = 200 + 40 * b, bl = 200 + 40 * b;
		break;
	case K_META: /* blue-grey: all, timestamps, comm */
		r = 140 + 30 * a, g = 160 + 30 * a, bl = 205 + 30 * b;
		break;
	case K_SEP:
		r = g = bl = 200;
		break;
	default: /* red */
		r = 200 + 55 * a, g = 50 + 55 * b, bl = 50 + 40 * c;
	}
	snprintf(buf, len, "rgb(%d,%d,%d)", r, g, bl);
}

static enum kind frame_kind(const struct ftrie *t, uint32_t node, bool ts_root)
{
	const struct fnode *n = &t->nodes[node];
	const struct fname *nm = &t->names[n->name];

	if (n->depth == 1 || (ts_root && n->depth == 2))
		return K_META;
	if (nm->len == 1 && nm->s[0] == '-')
		return K_SEP;
	if (has_suffix(nm, "_[k]"))
		return K_KERNEL;
	if (has_suffix(nm, "_[j]"))
		return K_JIT;
	if (has_suffix(nm, "_[i]"))
		return K_INLINE;
	if (memmem(nm->s, nm->len, "::", 2))
		return K_CXX;
	return K_USER;
}

struct svg {
	FILE *fp;
	const struct ftrie *t;
	const char *count_name;
	double scale;
	uint64_t total;
	uint32_t maxd;
	bool ts_root;
};

static void put_frame(struct svg *g, uint32_t node, double x, double w)
{
	const struct fnode *n = &g->t->nodes[node];
	const struct fname *nm = node ? &g->t->names[n->name] : NULL;
	const char *s = nm ? nm->s : "all";
	size_t len = nm ? nm->len : 3, chars = xml__nr_chars(s, len);
	long avail = (long)floor((w - 6) / CHAR_W);
	double y = TOP + (double)(g->maxd - n->depth) * FRAME_H;
	char fill[32], cnt[32];

	if (nm)
		frame_fill(nm, frame_kind(g->t, node, g->ts_root), fill, sizeof(fill));
	else
		snprintf(fill, sizeof(fill), "rgb(180,185,215)");
	fmt_count(n->total, cnt);
	fputs("<g><title>", g->fp);
	xml__put(g->fp, s, len, (size_t)-1);
	fprintf(g->fp, " (%s ", cnt);
	xml__puts(g->fp, g->count_name);
	fprintf(g->fp,
		", %.2f%%)</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
		"fill=\"%s\" rx=\"2\"/><text x=\"%.2f\" y=\"%.0f\">",
		100.0 * n->total / g->total, x, y, w, FRAME_H - 1, fill, x + 3, y + FRAME_H - 4);
	if (avail >= 3) {
		if (chars <= (size_t)avail) {
			xml__put(g->fp, s, len, chars);
		} else {
			xml__put(g->fp, s, len, avail - 2);
			fputs("..", g->fp);
		}
	}
	fputs("</text></g>\n", g->fp);
}

struct layout {
	struct svg *g;
	double minw;
	double *x; /* [depth]: left edge of that depth's next frame */
};

static int place_frame(void *arg, uint32_t c, uint32_t depth)
{
	struct layout *l = arg;
	const struct fnode *n = &l->g->t->nodes[c];
	double w = n->total * l->g->scale, x = l->x[depth - 1];

	l->x[depth - 1] += w;
	if (w < l->minw || n->depth > l->g->maxd)
		return 0; /* too narrow to see: its children are narrower */
	put_frame(l->g, c, x, w);
	l->x[depth] = x;
	return 1;
}

static int put_frames(struct svg *g)
{
	struct layout l = { g, MIN_FRAC * (SVG_W - 2 * PAD), NULL };
	int err;

	/* frames are only descended into up to g->maxd */
	l.x = malloc(sizeof(*l.x) * (g->maxd + 2));
	if (!l.x)
		return -ENOMEM;
	put_frame(g, 0, PAD, SVG_W - 2 * PAD);
	l.x[0] = PAD;
	err = ftrie__walk(g->t, place_frame, &l);
	free(l.x);
	return err;
}

int flame_svg__write(struct ftrie *t, FILE *fp, const char *title, const char *count_name)
{
	struct svg g = { .fp = fp, .t = t, .count_name = count_name };
	double minw = MIN_FRAC * (SVG_W - 2 * PAD);
	char cnt[32];
	int height, err;

	err = ftrie__sort(t);
	if (err)
		return err;
	g.total = ftrie__total(t);
	g.scale = g.total ? (double)(SVG_W - 2 * PAD) / g.total : 0;
	/* A parent is never narrower than its child: the deepest wide frame sets the height. */
	for (uint32_t i = 1; i < t->nr_nodes; i++) {
		if (t->nodes[i].total * g.scale >= minw && t->nodes[i].depth > g.maxd)
			g.maxd = t->nodes[i].depth;
	}
	g.ts_root = t->nodes[0].nr_kids > 0;
	for (uint32_t i = 0; i < t->nodes[0].nr_kids && g.ts_root; i++)
		g.ts_root = is_timestamp(&t->names[t->nodes[t->kids[i]].name]);
	height = TOP + (g.maxd + 1) * FRAME_H + BOTTOM;
	fmt_count(g.total, cnt);

	fprintf(fp,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		SVG_W, height, SVG_W, height);
	fprintf(fp, "<style type=\"text/css\"><![CDATA[\n%s]]></style>\n", style);
	fprintf(fp, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n", script);
	fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"#f8f8f2\"/>\n");
	fprintf(fp, "<text id=\"title\" x=\"%d\" y=\"22\">", SVG_W / 2);
	xml__puts(fp, title);
	fprintf(fp, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"38\">%s ", SVG_W / 2, cnt);
	xml__puts(fp, count_name);
	fprintf(fp, " in total%s</text>\n", g.total ? "" : ": no samples");
	fprintf(fp, "<text id=\"unzoom\" class=\"btn hide\" x=\"%d\" y=\"22\">Reset Zoom</text>\n",
		PAD);
	fprintf(fp,
		"<text id=\"search\" class=\"btn\" x=\"%d\" y=\"22\">Search</text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
		SVG_W - PAD - 100, SVG_W - PAD, height - 10, PAD, height - 10);
	fprintf(fp, "<g id=\"frames\">\n");
	if (g.total)
		err = put_frames(&g);
	fprintf(fp, "</g>\n</svg>\n");
	if (!err && ferror(fp))
		err = -EIO;
	return err;
}
