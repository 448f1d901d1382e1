/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-memory form of a flame graph: a trie of frames whose edges are
 * found through one open-addressing hash of (parent, name), names
 * interned once.  A stack that was seen before costs one name lookup and
 * one edge lookup per frame, and no string is built per sample.
 * Internal to src/out/ (flame.c, flame_svg.c).
 */
#ifndef PP_FTRIE_H
#define PP_FTRIE_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

struct fname {
	const char *s;
	uint32_t len;
	uint32_t rank; /* position in byte order, valid after ftrie__sort */
	uint64_t hash;
};

struct fnode {
	uint32_t parent;
	uint32_t name;
	uint32_t depth;	      /* root 0 */
	uint32_t first_child; /* index into ftrie.kids, valid after ftrie__sort */
	uint32_t nr_kids;
	uint64_t self;	/* weight of stacks ending here */
	uint64_t total; /* self + descendants, valid after ftrie__sort */
};

struct ftrie {
	struct fnode *nodes; /* nodes[0] is the unnamed root */
	uint32_t nr_nodes, cap_nodes;

	/* Edge table, one slot one cache access; parent1 = parent + 1, 0 = empty. */
	struct fedge {
		uint32_t parent1, name, child;
	} * edges;
	uint32_t emask, nr_edges;

	unsigned long err_line; /* ftrie__read_folded's -EOVERFLOW: on this line */

	struct fname *names;
	uint32_t nr_names, cap_names;
	uint32_t *ntab; /* name ids + 1, 0 = empty slot */
	uint32_t nmask;

	char *arena; /* current block of the string arena */
	size_t arena_used, arena_size;
	void *blocks; /* list of arena blocks, for freeing */

	uint32_t *kids; /* node ids grouped by parent, children in name order */
	int sorted;
};

int ftrie__init(struct ftrie *t);
void ftrie__exit(struct ftrie *t);

/* Id of the name @s[0..len); interned on first use.  0 or -ENOMEM. */
int ftrie__intern(struct ftrie *t, const char *s, size_t len, uint32_t *id);
/* The child of @parent named @name, created if missing.  0 or -ENOMEM. */
int ftrie__child(struct ftrie *t, uint32_t parent, uint32_t name, uint32_t *child);

/* Totals, and children ordered by name.  0 or -ENOMEM. */
int ftrie__sort(struct ftrie *t);
/* Sum of all weights (after ftrie__sort). */
static inline uint64_t ftrie__total(const struct ftrie *t)
{
	return t->nodes[0].total;
}

/*
 * Depth-first walk in name order (after ftrie__sort): @visit sees every
 * node below the root with its depth (1 = a child of the root).  Its
 * children are walked when it returns > 0, skipped on 0; < 0 ends the
 * walk and is returned.  0 or -errno.
 */
typedef int (*ftrie_visit_fn)(void *arg, uint32_t node, uint32_t depth);
int ftrie__walk(const struct ftrie *t, ftrie_visit_fn visit, void *arg);

/*
 * One line per node with a weight, depth first in name order, so the
 * output is deterministic.  Calls ftrie__sort.  0 or -errno.
 */
int ftrie__write_folded(struct ftrie *t, FILE *fp);

/*
 * One line of a folded file, its line break and trailing blanks cut:
 * "STACK COUNT", frames separated by ';', a blank (spaces or tabs) before
 * COUNT, which is a whole decimal number ("1.5", "-3", "1e3", "nan" are
 * not).  Frames hold any bytes but control characters (tab aside): those
 * never come from a stack collapser, and a text file with them is not one
 * (broken UTF-8 is kept: old comm names and Latin-1 symbols have it; the
 * SVG draws such a byte as '?').  1 with *@stack_len (the STACK part, its
 * trailing blanks cut) and *@w; 0 for a line that is not "STACK COUNT";
 * -EOVERFLOW for one whose COUNT does not fit in 64 bits.
 */
int ftrie__parse_folded_line(const char *line, size_t len, size_t *stack_len, uint64_t *w);

struct folded_stats {
	unsigned long lines;	 /* lines that are not blank */
	unsigned long bad;	 /* of those, not "STACK COUNT": skipped */
	unsigned long first_bad; /* the first of those (1-based line number), 0 if none */
	unsigned long err_line;	 /* -EOVERFLOW: on this line */
	uint64_t total;		 /* the sum of the counts */
};

/*
 * Add the lines of a folded file (ftrie__parse_folded_line).  Other lines
 * are counted in @st and skipped; blank lines are ignored; a line with a
 * count of 0 is valid and adds nothing.  0 or -errno; -EOVERFLOW (with
 * st->err_line and t->err_line) when a count, or the sum of the counts,
 * exceeds 64 bits.
 */
int ftrie__read_folded(struct ftrie *t, FILE *fp, struct folded_stats *st);

/* The SVG of @t (flame_svg.c).  0 or -errno. */
int flame_svg__write(struct ftrie *t, FILE *fp, const char *title, const char *count_name);

#endif
