// SPDX-License-Identifier: GPL-2.0
/*
 * perf-prof kcore: kernel memory at an address or a symbol, read from
 * /proc/kcore: a hex dump with its ASCII, COUNT values of 1, 2, 4 or 8
 * bytes, or a NUL-terminated string.  Opens no perf event.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "sym/kcore.h"
#include "sym/symaddr.h"
#include "util/ofile.h"

#define MAX_BYTES (1u << 20) /* what one run reads at most */
#define DUMP_DEFAULT 64	     /* bytes of a dump without COUNT */
#define STRING_DEFAULT 4096  /* bytes a string may have without COUNT */

struct kcore_cmd {
	bool b1, b2, b4, b8, string;
	const char *kcore, *kallsyms;
};

static const struct popt kcore_opts[] = {
	{ .lname = "u8",
	  .sname = '1',
	  .help = "COUNT values of 1 byte",
	  POPT_BIND_FLAG(struct kcore_cmd, b1) },
	{ .lname = "u16",
	  .sname = '2',
	  .help = "COUNT values of 2 bytes",
	  POPT_BIND_FLAG(struct kcore_cmd, b2) },
	{ .lname = "u32",
	  .sname = '4',
	  .help = "COUNT values of 4 bytes",
	  POPT_BIND_FLAG(struct kcore_cmd, b4) },
	{ .lname = "u64",
	  .sname = '8',
	  .help = "COUNT values of 8 bytes",
	  POPT_BIND_FLAG(struct kcore_cmd, b8) },
	{ .lname = "string",
	  .help = "the NUL-terminated string there (COUNT: its bytes at most, default 4096)",
	  POPT_BIND_FLAG(struct kcore_cmd, string) },
	{ .lname = "kcore",
	  .argname = "FILE",
	  .help = "read this ELF core file instead of /proc/kcore (a saved copy)",
	  POPT_BIND_STR(struct kcore_cmd, kcore) },
	{ .lname = "kallsyms",
	  .argname = "FILE",
	  .help = "look symbols up in this file instead of /proc/kallsyms",
	  POPT_BIND_STR(struct kcore_cmd, kallsyms) },
	{ 0 },
};

/* "0x..." or 16 hex digits (as kallsyms prints an address): an address */
static int parse_addr(const char *s, u64 *addr)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");
	char *end;

	if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) || (n == 16 && !s[n]) ||
	    isdigit((unsigned char)s[0])) {
		errno = 0;
		*addr = strtoull(s, &end,
				 s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16
				 : n == 16				     ? 16
									     : 0);
		return errno || *end || end == s || s[0] == '-' ? -EINVAL : 0;
	}
	return -ENOENT; /* a symbol */
}

/* SYMBOL or SYMBOL+OFF: 0, or -EINVAL for a malformed one */
static int split_symbol(const char *arg, char *name, size_t len, u64 *off)
{
	const char *plus = strchr(arg, '+');
	size_t n = plus ? (size_t)(plus - arg) : strlen(arg);
	char *end;

	*off = 0;
	if (!n || n >= len)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)arg[i]) && !strchr("_.$", arg[i]))
			return -EINVAL;
	memcpy(name, arg, n);
	name[n] = 0;
	if (plus) {
		errno = 0;
		*off = strtoull(plus + 1, &end, 0);
		if (errno || *end || end == plus + 1 || plus[1] == '-')
			return -EINVAL;
	}
	return 0;
}

static const struct rt_col dump_cols[] = {
	{ .name = "addr", .type = RT_HEX },
	{ .name = "hex", .type = RT_STR },
	{ .name = "ascii", .type = RT_STR },
};
static const struct rt_desc dump_desc = { .type = "kcore", .cols = dump_cols, .ncols = 3 };
static const struct rt_col value_cols[] = {
	{ .name = "addr", .type = RT_HEX },
	{ .name = "size", .type = RT_U64 },
	{ .name = "value", .type = RT_U64 },
};
static const struct rt_desc value_desc = { .type = "kcore", .cols = value_cols, .ncols = 3 };
static const struct rt_col string_cols[] = {
	{ .name = "addr", .type = RT_HEX },
	{ .name = "string", .type = RT_STR },
};
static const struct rt_desc string_desc = { .type = "kcore", .cols = string_cols, .ncols = 2 };

/* Like hexdump -C, at kernel addresses: 16 bytes a line, their ASCII after. */
static void print_dump(FILE *out, bool json, u64 addr, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i += 16) {
		size_t k = n - i < 16 ? n - i : 16;
		char hex[64], ascii[17];
		int h = 0;

		for (size_t j = 0; j < k; j++) {
			h += snprintf(hex + h, sizeof(hex) - h, "%s%02x", j ? " " : "", b[i + j]);
			ascii[j] = isprint(b[i + j]) ? (char)b[i + j] : '.';
		}
		ascii[k] = 0;
		if (json) {
			rtable__record(out, true, &dump_desc,
				       (struct rt_val[]){
					       { .u = addr + i }, { .s = hex }, { .s = ascii } });
			continue;
		}
		fprintf(out, "%016" PRIx64 " ", addr + i);
		for (size_t j = 0; j < 16; j++) {
			if (j == 8)
				fputc(' ', out);
			if (j < k)
				fprintf(out, " %02x", b[i + j]);
			else
				fputs("   ", out);
		}
		fprintf(out, "  |%s|\n", ascii);
	}
}

static void print_values(FILE *out, bool json, u64 addr, const unsigned char *b, size_t n,
			 unsigned size)
{
	for (size_t i = 0; i + size <= n; i += size) {
		uint8_t v1;
		uint16_t v2;
		uint32_t v4;
		uint64_t v = 0;

		switch (size) {
		case 1:
			v = (memcpy(&v1, b + i, 1), v1);
			break;
		case 2:
			v = (memcpy(&v2, b + i, 2), v2);
			break;
		case 4:
			v = (memcpy(&v4, b + i, 4), v4);
			break;
		default:
			memcpy(&v, b + i, 8);
		}
		if (json)
			rtable__record(
				out, true, &value_desc,
				(struct rt_val[]){ { .u = addr + i }, { .u = size }, { .u = v } });
		else
			fprintf(out, "%016" PRIx64 "  0x%0*" PRIx64 "  %" PRIu64 "\n", addr + i,
				(int)size * 2, v, v);
	}
}

/*
 * The string at @addr, @max bytes at most, 256 bytes at a time.  A byte in
 * no segment (-EFAULT) after the first ends it there; any other failure
 * (the file ends early, EIO) is the read's.
 */
static int read_string(struct kcore *kc, u64 addr, size_t max, char *buf, size_t *len)
{
	size_t got = 0;

	while (got < max) {
		size_t chunk = max - got < 256 ? max - got : 256;
		int err = kcore__read(kc, addr + got, buf + got, chunk);
		char *z;

		/* the string may end before the segment does: byte by byte near its end */
		if (err == -EFAULT && chunk > 1)
			for (chunk = 1; !(err = kcore__read(kc, addr + got, buf + got, 1)) &&
					!memchr(buf + got, 0, 1) && got + chunk < max;)
				got++;
		if (err == -EFAULT && got)
			return *len = got, 0;
		if (err)
			return err;
		z = memchr(buf + got, 0, chunk);
		if (z) {
			*len = z - buf;
			return 0;
		}
		got += chunk;
	}
	*len = got;
	return 0;
}

static int usage(const char *msg, const char *arg)
{
	fprintf(stderr,
		"perf-prof kcore: %s%s%s (usage: perf-prof kcore [-1|-2|-4|-8] [--string] "
		"KADDR|SYMBOL[+OFF] [COUNT])\n",
		msg, arg ? ": " : "", arg ? arg : "");
	return 2;
}

static int kcore_run(const struct opt_set *opts, void *priv, int argc, char **argv)
{
	const struct output_opts *o = opt_set__get(opts, &output_group);
	struct kcore_cmd *c = priv;
	const char *path = c->kcore ? c->kcore : KCORE_PATH;
	unsigned size = c->b1 ? 1 : c->b2 ? 2 : c->b4 ? 4 : c->b8 ? 8 : 0;
	unsigned long long count = 0;
	struct outfile *of = NULL;
	struct kcore *kc = NULL;
	unsigned char *buf = NULL;
	char name[256], why[512];
	u64 addr = 0, off = 0, last;
	size_t bytes, len = 0;
	FILE *out = stdout;
	int err, ret = 1;

	if (argc < 1)
		return usage("no address or symbol", NULL);
	if (argc > 2)
		return usage("too many arguments", argv[2]);
	if (c->b1 + c->b2 + c->b4 + c->b8 > 1)
		return usage("one value size at most (-1, -2, -4 or -8)", NULL);
	if (size && c->string)
		return usage("--string reads bytes: no value size with it", NULL);
	if (argc == 2) {
		char *end;

		errno = 0;
		count = strtoull(argv[1], &end, 0);
		if (errno || *end || end == argv[1] || argv[1][0] == '-' || !count)
			return usage("bad COUNT (a positive number)", argv[1]);
	}
	bytes = size	    ? count ? count * size : size
		: count	    ? count
		: c->string ? STRING_DEFAULT
			    : DUMP_DEFAULT;
	if ((size && count > MAX_BYTES / size) || bytes > MAX_BYTES)
		return usage("COUNT too large (1 MiB at most)", argv[1]);
	err = parse_addr(argv[0], &addr);
	if (err == -EINVAL)
		return usage("bad address", argv[0]);
	if (err == -ENOENT && split_symbol(argv[0], name, sizeof(name), &off))
		return usage("bad symbol (NAME or NAME+OFFSET)", argv[0]);

	/* the file first: without it, no symbol is worth looking up */
	err = kcore__open(path, &kc);
	if (err) {
		fprintf(stderr, "perf-prof kcore: cannot read %s: %s\n", path,
			c->kcore && err != -ENOEXEC ? strerror(-err)
			: c->kcore		    ? kcore__why(err, NULL, 1, why, sizeof(why))
						    : kcore__explain(err, why, sizeof(why)));
		return 1;
	}
	if (parse_addr(argv[0], &addr) == -ENOENT) {
		const char *ks = c->kallsyms ? c->kallsyms : "/proc/kallsyms";
		FILE *fp = fopen(ks, "re");
		struct symaddr sa;

		/* a file that cannot be read is no unknown symbol */
		if (!fp) {
			fprintf(stderr, "perf-prof kcore: cannot read %s: %s\n", ks,
				strerror(errno));
			goto out;
		}
		err = symaddr__parse_kallsyms(fp, name, &sa);
		fclose(fp);
		if (err == -ENOENT) {
			fprintf(stderr,
				"perf-prof kcore: unknown symbol '%s': not in %s (a kernel without "
				"CONFIG_KALLSYMS_ALL lists functions only; give the address)\n",
				name, ks);
			ret = 2;
			goto out;
		}
		if (err) {
			fprintf(stderr, "perf-prof kcore: cannot look '%s' up in %s: %s\n", name,
				ks,
				err == -EPERM
					? "the kernel hides its addresses (kptr_restrict: run "
					  "as root)"
					: strerror(-err));
			goto out;
		}
		addr = sa.addr + off;
	}
	buf = malloc(bytes + 1);
	if (!buf) {
		fprintf(stderr, "perf-prof kcore: out of memory\n");
		goto out;
	}
	err = c->string ? read_string(kc, addr, bytes, (char *)buf, &len)
			: kcore__read(kc, addr, buf, bytes);
	last = addr + bytes - 1 < addr ? UINT64_MAX : addr + bytes - 1;
	if (err == -ENODATA) {
		fprintf(stderr,
			"perf-prof kcore: %#" PRIx64 "..%#" PRIx64 ": %s ends before the segment "
			"that holds them does (a truncated copy?)\n",
			addr, last, path);
		goto out;
	}
	if (err) {
		fprintf(stderr, "perf-prof kcore: %#" PRIx64 "..%#" PRIx64 ": %s\n", addr, last,
			err == -EFAULT ? "not all in the kernel memory that kcore maps (not a "
					 "kernel virtual address?)"
				       : strerror(-err));
		goto out;
	}
	if (o->path) {
		out = outfile__create(o->path, &of);
		if (!out) {
			fprintf(stderr, "perf-prof kcore: cannot write '%s': %s\n", o->path,
				ofile__strerror(errno));
			goto out;
		}
	}
	errno = 0; /* what a write that fails while printing leaves */
	if (c->string) {
		buf[len] = 0;
		if (o->json)
			rtable__record(out, true, &string_desc,
				       (struct rt_val[]){ { .u = addr }, { .s = (char *)buf } });
		else
			fprintf(out, "%s%s", buf, len && buf[len - 1] == '\n' ? "" : "\n");
	} else if (size) {
		print_values(out, o->json, addr, buf, bytes, size);
	} else {
		print_dump(out, o->json, addr, buf, bytes);
	}
	ret = 0;
	if (of) {
		err = outfile__commit(out, of, 0);
		if (err) {
			fprintf(stderr, "perf-prof kcore: cannot write '%s': %s\n", o->path,
				ofile__strerror(-err));
			ret = 1;
		}
	} else {
		/* a full disk, a closed pipe: said, not only in the status */
		err = errno;
		errno = 0;
		if (fflush(out))
			err = errno;
		if (ferror(out)) {
			fprintf(stderr, "perf-prof kcore: cannot write to stdout: %s\n",
				strerror(err ? err : EIO));
			ret = 1;
		}
	}
out:
	free(buf);
	kcore__delete(kc);
	return ret;
}

const struct command cmd_kcore = {
	.name = "kcore",
	.desc = "read kernel memory from /proc/kcore: a hex dump, values, or a string",
	.synopsis = "perf-prof kcore [-1|-2|-4|-8] [--string] KADDR|SYMBOL[+OFF] [COUNT]",
	.examples =
		"perf-prof kcore --string linux_banner\n"
		"  perf-prof kcore -8 jiffies_64           # one 8-byte value, hex and decimal\n"
		"  perf-prof kcore 0xffffffff81000000 128  # 128 bytes, hex and ASCII",
	.groups = (const struct opt_group *const[]){ &output_group, NULL },
	.own = kcore_opts,
	.priv_size = sizeof(struct kcore_cmd),
	.run = kcore_run,
};
