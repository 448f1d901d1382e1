// SPDX-License-Identifier: GPL-2.0
/*
 * Latency heat maps: the .lat writer, and the .lat -> SVG drawing in two
 * passes (ranges first, then counts in a fixed grid), so that memory does
 * not grow with the number of pairs.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/heatmap.h"
#include "report/outfile.h"
#include "util/ofile.h"
#include "util/ostream.h"
#include "util/units.h"
#include "util/xml.h"

/* A valid line is two numbers of at most 20 digits; longer lines are malformed. */
#define LINE_CAP 128
#define MAX_ROWS 64 /* log2 buckets of a 64-bit latency */
#define MAX_XLABELS 10

/* Layout of the SVG, in pixels. */
#define PLOT_X 96 /* left margin: latency labels */
#define PLOT_Y 64 /* top margin: title and subtitle */
#define PLOT_W 1000
#define RIGHT 30
#define BOTTOM 96 /* time labels, axis caption, legend */
#define LEGEND_W 200

struct heatmap {
	FILE *fp;
	struct ostream *os; /* keeps the errno of the first failed write */
	char *path;
	int err;
};

struct heatmap *heatmap__open_numbers(const char *lat_path)
{
	struct heatmap *h = heatmap__open(lat_path);

	if (h && (fprintf(h->fp, "%s\n", HEATMAP_NUMBERS_LINE) < 0 || *ostream__errno(h->os)))
		h->err = *ostream__errno(h->os) ? -*ostream__errno(h->os) : -EIO;
	return h;
}

struct heatmap *heatmap__open(const char *lat_path)
{
	struct heatmap *h;
	int e;

	if (!lat_path || !*lat_path) {
		errno = EINVAL;
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->path = strdup(lat_path);
	if (h->path) {
		int fd = ofile__open(lat_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);

		if (fd < 0)
			errno = -fd;
		else if ((h->fp = ostream__open(fd, &h->os)))
			return h;
		else
			close(fd);
	}
	e = errno;
	free(h->path);
	free(h);
	errno = e;
	return NULL;
}

int heatmap__add(struct heatmap *h, uint64_t time_ns, uint64_t latency_ns)
{
	if (!h)
		return -EINVAL;
	if (h->err)
		return h->err;
	if (fprintf(h->fp, "%" PRIu64 " %" PRIu64 "\n", time_ns, latency_ns) < 0 ||
	    *ostream__errno(h->os))
		h->err = *ostream__errno(h->os) ? -*ostream__errno(h->os) : -EIO;
	return h->err;
}

int heatmap__close(struct heatmap *h, const char *svg_path, const char *title)
{
	int err;

	if (!h)
		return -EINVAL;
	err = ostream__close(h->fp, h->os); /* the first failure's errno: ENOSPC */
	if (h->err)
		err = h->err;
	if (!err && svg_path)
		err = heatmap__lat_to_svg(h->path, svg_path, title, NULL);
	free(h->path);
	free(h);
	return err;
}

/* ---- reading the .lat ---- */

/*
 * Read one line (without its '\n') into @buf of @cap bytes; *@len gets its
 * length, @cap for a line that does not fit (the rest is skipped); *@nl
 * whether it ended with a newline.  false at end of file.
 */
static bool read_line(FILE *in, char *buf, size_t cap, size_t *len, bool *nl)
{
	bool any = false, full = false;
	size_t n = 0;
	int c;

	*nl = false;
	while ((c = getc_unlocked(in)) != EOF) {
		any = true;
		if (c == '\n') {
			*nl = true;
			break;
		}
		if (n < cap)
			buf[n++] = (char)c;
		else
			full = true;
	}
	*len = full ? cap : n;
	return any;
}

static bool is_sep(char c)
{
	return c == ' ' || c == '\t';
}

static bool parse_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s == end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*p = s;
	*v = x;
	return true;
}

/* "TIME LATENCY": 1; a blank or '#' line: 0; anything else (to be skipped): -1. */
static int parse_line(const char *buf, size_t len, uint64_t *t, uint64_t *l)
{
	const char *p = buf, *end = buf + len;

	if (len && end[-1] == '\r')
		end--;
	while (p < end && is_sep(*p))
		p++;
	if (p == end || *p == '#')
		return 0;
	if (!parse_u64(&p, end, t) || p == end || !is_sep(*p))
		return -1;
	while (p < end && is_sep(*p))
		p++;
	if (!parse_u64(&p, end, l))
		return -1;
	while (p < end && is_sep(*p))
		p++;
	return p == end ? 1 : -1;
}

struct scan {
	bool numbers;	/* HEATMAP_NUMBERS_LINE first: plain numbers, not latencies */
	uint64_t lines; /* lines read, for the second pass */
	uint64_t pairs;
	uint64_t tmin, tmax, lmin, lmax;
	struct lat_stats *st;
};

/*
 * First pass: the ranges.  @copy (non-NULL for an input that cannot be read
 * twice) gets the lines, for the second pass.
 */
static int scan_lat(FILE *in, FILE *copy, struct scan *s, struct lat_stats *st)
{
	char buf[LINE_CAP];
	uint64_t t, l;
	size_t len;
	bool nl;
	int r;

	memset(s, 0, sizeof(*s));
	errno = 0;
	while (read_line(in, buf, sizeof(buf), &len, &nl)) {
		r = len < sizeof(buf) ? parse_line(buf, len, &t, &l) : -1;
		if (r < 0 && !nl)
			break; /* the end of a live file: a line still being written */
		s->lines++;
		if (s->lines == 1 && len == strlen(HEATMAP_NUMBERS_LINE) &&
		    !memcmp(buf, HEATMAP_NUMBERS_LINE, len))
			s->numbers = true;
		if (r != 0)
			st->lines++;
		if (r < 0 && !st->bad++)
			st->first_bad = (unsigned long)s->lines;
		if (copy) {
			fwrite(buf, 1, len, copy);
			putc('\n', copy);
		}
		if (r <= 0)
			continue;
		if (!s->pairs++) {
			s->tmin = s->tmax = t;
			s->lmin = s->lmax = l;
			continue;
		}
		if (t < s->tmin)
			s->tmin = t;
		if (t > s->tmax)
			s->tmax = t;
		if (l < s->lmin)
			s->lmin = l;
		if (l > s->lmax)
			s->lmax = l;
	}
	if (ferror(in))
		return errno ? -errno : -EIO;
	if (copy && (fflush(copy) || ferror(copy)))
		return errno ? -errno : -EIO;
	if (!s->pairs)
		return st->bad ? -EINVAL : -ENODATA;
	return 0;
}

/* ---- the grid ---- */

struct grid {
	bool numbers;	   /* the rows are plain numbers (struct scan) */
	uint64_t t0, step; /* column c: [t0 + c * step, t0 + (c + 1) * step) */
	unsigned ncols;
	unsigned kmin, nrows; /* row r: log2 bucket kmin + r */
	uint64_t *cells;      /* [c * nrows + r] */
	uint64_t max, total;
};

/* Bucket k holds [2^k, 2^(k+1)) ns; bucket 0 also holds 0. */
static unsigned bucket(uint64_t l)
{
	return l < 2 ? 0 : 63 - (unsigned)__builtin_clzll((unsigned long long)l);
}

/* Lower bound of bucket @k; UINT64_MAX stands for 2^64. */
static uint64_t bucket_lo(unsigned k)
{
	if (k == 0)
		return 0;
	return k >= 64 ? UINT64_MAX : (uint64_t)1 << k;
}

/*
 * The column width: the smallest 1, 2 or 5 x 10^e ns, at least 1us (pairs
 * that start within a microsecond are simultaneous on this scale), that
 * covers @span in at most HEATMAP_MAX_COLS columns.
 */
static uint64_t time_step(uint64_t span, unsigned *ncols)
{
	static const unsigned mult[] = { 1, 2, 5 };
	uint64_t p = 1000, step = 1000;

	for (int e = 3; e < 20; e++, p *= 10) {
		for (size_t i = 0; i < sizeof(mult) / sizeof(mult[0]); i++) {
			uint64_t v;

			if (__builtin_mul_overflow(p, (uint64_t)mult[i], &v))
				goto out; /* not reached: 10^19 covers any span */
			step = v;
			if (span / step < HEATMAP_MAX_COLS)
				goto out;
		}
	}
out:
	*ncols = (unsigned)(span / step) + 1;
	return step;
}

static int grid_init(struct grid *g, const struct scan *s)
{
	memset(g, 0, sizeof(*g));
	g->numbers = s->numbers;
	g->t0 = s->tmin;
	g->step = time_step(s->tmax - s->tmin, &g->ncols);
	g->kmin = bucket(s->lmin);
	g->nrows = bucket(s->lmax) - g->kmin + 1;
	g->cells = calloc((size_t)g->ncols * g->nrows, sizeof(*g->cells));
	return g->cells ? 0 : -ENOMEM;
}

/* Second pass: the first @lines lines of @in (a live file may have grown since). */
static int fill_grid(struct grid *g, FILE *in, uint64_t lines)
{
	char buf[LINE_CAP];
	uint64_t t, l, c;
	size_t len;
	unsigned k;
	bool nl;

	errno = 0;
	if (fseeko(in, 0, SEEK_SET))
		return -errno;
	for (uint64_t i = 0; i < lines && read_line(in, buf, sizeof(buf), &len, &nl); i++) {
		if (len >= sizeof(buf) || parse_line(buf, len, &t, &l) != 1)
			continue;
		if (t < g->t0)
			continue; /* the file changed between the passes */
		c = (t - g->t0) / g->step;
		k = bucket(l);
		if (c >= g->ncols || k < g->kmin || k - g->kmin >= g->nrows)
			continue;
		g->cells[c * g->nrows + (k - g->kmin)]++;
		g->total++;
	}
	if (ferror(in))
		return errno ? -errno : -EIO;
	for (size_t i = 0; i < (size_t)g->ncols * g->nrows; i++)
		if (g->cells[i] > g->max)
			g->max = g->cells[i];
	return g->total ? 0 : -ENODATA;
}

/* ---- drawing ---- */

/* Decimal places that show multiples of @step ns in seconds, within [@lo, 9]. */
static int decimals(uint64_t step, int lo)
{
	int e = 0;

	while (step && step % 10 == 0 && e < 9) {
		step /= 10;
		e++;
	}
	return 9 - e < lo ? lo : 9 - e;
}

/* "+1.250s": @ns in seconds with @dec decimals (truncated). */
static char *fmt_secs(uint64_t ns, int dec, char *buf, size_t len)
{
	uint64_t div = 1;

	for (int i = dec; i < 9; i++)
		div *= 10;
	if (dec <= 0)
		snprintf(buf, len, "+%" PRIu64 "s", ns / 1000000000);
	else
		snprintf(buf, len, "+%" PRIu64 ".%0*" PRIu64 "s", ns / 1000000000, dec,
			 ns % 1000000000 / div);
	return buf;
}

/* Start of column @c from the first pair, saturated. */
static uint64_t col_time(const struct grid *g, uint64_t c)
{
	uint64_t v;

	return __builtin_mul_overflow(c, g->step, &v) ? UINT64_MAX : v;
}

/* A latency, or a plain number. */
static char *fmt_val(const struct grid *g, uint64_t v, char *buf, size_t len)
{
	if (!g->numbers)
		return units__fmt_ns((unsigned long long)v, buf, len);
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

/* Row @k's lower bound, exact (a cell's hover title). */
static char *fmt_lat(const struct grid *g, unsigned k, char *buf, size_t len)
{
	if (g->numbers && k >= 64) {
		snprintf(buf, len, "2^64");
		return buf;
	}
	return fmt_val(g, bucket_lo(k), buf, len);
}

/* What a map counts: pairs and their latencies, or events and their numbers. */
static const char *noun(const struct grid *g)
{
	return g->numbers ? "event" : "pair";
}

static const char *what(const struct grid *g)
{
	return g->numbers ? "value" : "latency";
}

/*
 * Row @k's label on the axis, read at a glance: 2^k ns as 1, 2, 4 ... 512
 * of the unit 1024^(k/10) ns stands for (1us for 1.024us, 1ms for
 * 1.048576ms, 1s for 1.073741824s; seconds beyond: 1024s for 2^40 ns).
 */
static char *fmt_row_label(const struct grid *g, unsigned k, char *buf, size_t len)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	/* plain numbers: 1, 2 ... 512, 1K ... 512K, 1M ..., 1024 each */
	static const char *const mult[] = { "", "K", "M", "G", "T", "P", "E" };
	unsigned u = k / 10 < 3 ? k / 10 : 3;

	if (g->numbers && k) {
		u = k / 10 < 6 ? k / 10 : 6;
		snprintf(buf, len, "%llu%s", 1ULL << (k - 10 * u), mult[u]);
		return buf;
	}

	if (k == 0)
		snprintf(buf, len, "0");
	else if (k - 10 * u >= 64)
		snprintf(buf, len, "2^%uns", k);
	else
		snprintf(buf, len, "%llu%s", 1ULL << (k - 10 * u), unit[u]);
	return buf;
}

struct rgb {
	unsigned r, g, b;
};

/* The colour ramp, @f in [0, 1]: pale yellow through orange to dark red. */
static struct rgb ramp_at(double f)
{
	static const struct {
		double at;
		struct rgb c;
	} ramp[] = {
		{ 0.0, { 255, 240, 150 } },
		{ 0.35, { 254, 190, 70 } },
		{ 0.7, { 235, 80, 35 } },
		{ 1.0, { 150, 0, 25 } },
	};
	const size_t last = sizeof(ramp) / sizeof(ramp[0]) - 1;
	size_t i = 1;
	double w;

	f = f < 0 ? 0 : f > 1 ? 1 : f;
	while (i < last && f > ramp[i].at)
		i++;
	w = (f - ramp[i - 1].at) / (ramp[i].at - ramp[i - 1].at);
	return (struct rgb){
		(unsigned)lround(ramp[i - 1].c.r + w * ((double)ramp[i].c.r - ramp[i - 1].c.r)),
		(unsigned)lround(ramp[i - 1].c.g + w * ((double)ramp[i].c.g - ramp[i - 1].c.g)),
		(unsigned)lround(ramp[i - 1].c.b + w * ((double)ramp[i].c.b - ramp[i - 1].c.b)),
	};
}

/* A count's colour, log-scaled: 1 is the palest, @max the darkest. */
static struct rgb colour(uint64_t n, uint64_t max)
{
	return ramp_at(max > 1 ? log((double)n) / log((double)max) : 1.0);
}

static void svg_head(FILE *fp, unsigned width, unsigned height)
{
	fprintf(fp,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>\n"
		"text { font-family: Verdana, sans-serif; font-size: 11px; fill: #000; }\n"
		"text.title { font-size: 17px; }\n"
		"text.sub { fill: #555; }\n"
		"rect.c { shape-rendering: crispEdges; }\n"
		"rect.c:hover { stroke: #000; stroke-width: 1; }\n"
		"line { stroke: #888; stroke-width: 1; }\n"
		"</style>\n"
		"<defs><linearGradient id=\"ramp\">",
		width, height, width, height);
	for (int i = 0; i <= 10; i++) {
		double f = i / 10.0;
		struct rgb c = ramp_at(f);

		fprintf(fp, "<stop offset=\"%.1f\" stop-color=\"rgb(%u,%u,%u)\"/>", f, c.r, c.g,
			c.b);
	}
	fprintf(fp, "</linearGradient></defs>\n"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
}

static void svg_cells(FILE *fp, const struct grid *g, double cw, unsigned rh, unsigned ph)
{
	int dec = decimals(g->step, 3);
	char t1[32], t2[32], l1[32], l2[32];

	for (unsigned c = 0; c < g->ncols; c++) {
		fmt_secs(col_time(g, c), dec, t1, sizeof(t1));
		fmt_secs(col_time(g, (uint64_t)c + 1), dec, t2, sizeof(t2));
		for (unsigned r = 0; r < g->nrows; r++) {
			uint64_t n = g->cells[(size_t)c * g->nrows + r];
			struct rgb col;

			if (!n)
				continue;
			col = colour(n, g->max);
			fprintf(fp,
				"<rect class=\"c\" x=\"%.2f\" y=\"%u\" width=\"%.2f\" "
				"height=\"%u\" "
				"fill=\"rgb(%u,%u,%u)\"><title>time %s..%s, %s %s..%s: "
				"%" PRIu64 " %s%s</title></rect>\n",
				PLOT_X + c * cw, PLOT_Y + ph - (r + 1) * rh, cw, rh, col.r, col.g,
				col.b, t1, t2, what(g), fmt_lat(g, g->kmin + r, l1, sizeof(l1)),
				fmt_lat(g, g->kmin + r + 1, l2, sizeof(l2)), n, noun(g),
				n == 1 ? "" : "s");
		}
	}
}

static void svg_axes(FILE *fp, const struct grid *g, double cw, unsigned rh, unsigned ph)
{
	static const unsigned every[] = { 1, 2, 5, 10, 20, 50, 100, 200 };
	unsigned m = every[0], base = PLOT_Y + ph;
	char buf[32];
	size_t i;
	int dec;

	fprintf(fp,
		"<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"none\" "
		"stroke=\"#888\"/>\n",
		PLOT_X, PLOT_Y, PLOT_W, ph);
	/*
	 * latency: the lower bound of each row (every other one when rows are
	 * thin), rounded to 1, 2, 4 ... of its unit; the titles have it exact
	 */
	for (unsigned r = 0; r <= g->nrows; r += rh >= 14 ? 1 : 2) {
		unsigned y = base - r * rh;

		fprintf(fp,
			"<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\"/>"
			"<text x=\"%u\" y=\"%u\" text-anchor=\"end\">%s</text>\n",
			PLOT_X - 4, y, PLOT_X, y, PLOT_X - 6, y + 4,
			fmt_row_label(g, g->kmin + r, buf, sizeof(buf)));
	}
	fprintf(fp,
		"<text x=\"14\" y=\"%u\" text-anchor=\"middle\" transform=\"rotate(-90 14 %u)\">"
		"%s</text>\n",
		PLOT_Y + ph / 2, PLOT_Y + ph / 2,
		g->numbers ? "value (log2 rows; 1K = 1024, 1M = 1024K)"
			   : "latency (log2 rows; 1us = 1024ns, 1ms = 1024us)");
	/* time: at most MAX_XLABELS + 1 column boundaries */
	for (i = 0; i < sizeof(every) / sizeof(every[0]); i++) {
		m = every[i];
		if ((g->ncols + m - 1) / m <= MAX_XLABELS)
			break;
	}
	dec = decimals(col_time(g, m), 0);
	for (unsigned c = 0; c <= g->ncols; c += m) {
		double x = PLOT_X + c * cw;

		fprintf(fp,
			"<line x1=\"%.2f\" y1=\"%u\" x2=\"%.2f\" y2=\"%u\"/>"
			"<text x=\"%.2f\" y=\"%u\" text-anchor=\"middle\">%s</text>\n",
			x, base, x, base + 4, x, base + 16,
			fmt_secs(col_time(g, c), dec, buf, sizeof(buf)));
	}
	fprintf(fp,
		"<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">time from the first %s "
		"(columns of %s)</text>\n",
		PLOT_X + PLOT_W / 2, base + 34, noun(g),
		units__fmt_ns((unsigned long long)g->step, buf, sizeof(buf)));
}

static void svg_legend(FILE *fp, const struct grid *g, unsigned y)
{
	fprintf(fp,
		"<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"12\" fill=\"url(#ramp)\" "
		"stroke=\"#888\"/>\n"
		"<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">1</text>"
		"<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">%" PRIu64 "</text>"
		"<text x=\"%u\" y=\"%u\">%ss per cell (log scale, max %" PRIu64 ")</text>\n",
		PLOT_X, y, LEGEND_W, PLOT_X, y + 25, PLOT_X + LEGEND_W, y + 25, g->max,
		PLOT_X + LEGEND_W + 12, y + 10, noun(g), g->max);
}

static void svg_write(FILE *fp, const struct grid *g, const struct scan *s, const char *title)
{
	unsigned rh = 480 / g->nrows, ph, width, height;
	double cw = (double)PLOT_W / g->ncols;
	char b1[32], b2[32], b3[32];

	rh = rh < 10 ? 10 : rh > 40 ? 40 : rh;
	ph = rh * g->nrows;
	width = PLOT_X + PLOT_W + RIGHT;
	height = PLOT_Y + ph + BOTTOM;
	svg_head(fp, width, height);
	fprintf(fp, "<text class=\"title\" x=\"%u\" y=\"26\" text-anchor=\"middle\">", width / 2);
	xml__puts(fp, title);
	fprintf(fp,
		"</text>\n<text class=\"sub\" x=\"%u\" y=\"46\" text-anchor=\"middle\">%" PRIu64
		" %ss over %s, %s %s..%s (first %s at %" PRIu64 " ns)</text>\n",
		width / 2, g->total, noun(g), fmt_secs(s->tmax - s->tmin, 3, b1, sizeof(b1)) + 1,
		what(g), fmt_val(g, s->lmin, b2, sizeof(b2)), fmt_val(g, s->lmax, b3, sizeof(b3)),
		noun(g), s->tmin);
	svg_cells(fp, g, cw, rh, ph);
	svg_axes(fp, g, cw, rh, ph);
	svg_legend(fp, g, PLOT_Y + ph + 54);
	fputs("</svg>\n", fp);
}

int heatmap__lat_to_svg(const char *lat, const char *svg, const char *title, struct lat_stats *stp)
{
	struct lat_stats dummy, *ls = stp ? stp : &dummy;
	FILE *in, *copy = NULL, *out;
	struct grid g = { 0 };
	struct outfile *of;
	struct scan s;
	struct stat st;
	int err;

	*ls = (struct lat_stats){ 0 };
	if (!lat || !svg)
		return -EINVAL;
	in = fopen(lat, "r");
	if (!in)
		return -errno;
	if (fstat(fileno(in), &st)) {
		err = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		err = -EISDIR;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		/* a pipe cannot be read twice: the first pass keeps a copy on disk */
		copy = tmpfile();
		if (!copy) {
			err = -errno;
			goto out;
		}
	}
	err = scan_lat(in, copy, &s, ls);
	if (!err)
		err = grid_init(&g, &s);
	if (!err)
		err = fill_grid(&g, copy ? copy : in, s.lines);
	if (err)
		goto out;
	out = outfile__create(svg, &of);
	if (!out) {
		err = -errno;
		goto out;
	}
	svg_write(out, &g, &s,
		  title && *title ? title
		  : g.numbers	  ? "Value Heat Map"
				  : "Latency Heat Map");
	err = outfile__commit(out, of, 0);
out:
	free(g.cells);
	if (copy)
		fclose(copy);
	fclose(in);
	return err;
}
