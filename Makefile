# perf-prof: plain Makefile, dependencies through pkg-config.
CC ?= cc
PKGS := libtracefs libtraceevent libelf libdw libprotobuf-c zlib libbpf sqlite3 python3-embed
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS := $(shell pkg-config --libs $(PKGS))
WERROR ?= -Werror
CFLAGS ?= -O2 -g
override CFLAGS += -std=gnu11 -Wall -Wextra $(WERROR) -fno-omit-frame-pointer -D_GNU_SOURCE \
	  -Isrc -I$(BUILD)/gen $(PKG_CFLAGS)
override LDLIBS += $(PKG_LIBS) -liberty -lm
BUILD ?= build

LIB_SRCS := $(filter-out src/cli/main.c,$(shell find src -name '*.c' | sort))
# pprof output (src/report/pprof.c) uses C code that protoc-c generates from
# the upstream profile.proto (Debian: golang-github-google-pprof-dev) at build
# time into $(BUILD)/gen/profile.pb-c.[ch] (package perftools.profiles).
PPROF_PROTO ?= /usr/share/gocode/src/github.com/google/pprof/proto/profile.proto
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/gen/profile.pb-c.o
MAIN_OBJ := $(BUILD)/src/cli/main.o
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
WORK_SRCS := $(wildcard tests/work/*.c)
WORK_BINS := $(WORK_SRCS:tests/work/%.c=$(BUILD)/work/%)
# Workloads that need special builds (shared libraries, no frame pointers,
# C++, stripped binaries) are built by tests/work/Makefile.
FUZZ_SRCS := $(wildcard fuzz/fuzz_*.c)

# The default build makes ./perf-prof; another BUILD dir gets its own binary
# so that several builds can run side by side.
PP_BIN := $(if $(filter build,$(BUILD)),perf-prof,$(BUILD)/perf-prof)

all: $(PP_BIN)

$(PP_BIN): $(LIB_OBJS) $(MAIN_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# syscall_name() of expressions: x86_64 names from the kernel headers, made at
# build time ('[NR] = "name",' lines, by number; empty without the header).
SYSCALL_HDR ?= $(firstword $(wildcard /usr/include/x86_64-linux-gnu/asm/unistd_64.h \
		/usr/include/asm/unistd_64.h))
%/gen/expr_syscalls.h: $(SYSCALL_HDR)
	@mkdir -p $(dir $@)
	{ [ -z "$(SYSCALL_HDR)" ] || sed -n 's/^#define __NR_\([a-z0-9_]*\)[[:space:]]\{1,\}\([0-9]\{1,\}\)$$/[\2] = "\1",/p' \
		$(SYSCALL_HDR) | sort -t[ -k2 -n; } > $@.tmp && mv $@.tmp $@
$(BUILD)/src/expr/funcs.o: $(BUILD)/gen/expr_syscalls.h

# profile.proto -> profile.pb-c.c and .h (one protoc-c run makes both).
%/gen/profile.pb-c.c %/gen/profile.pb-c.h: $(PPROF_PROTO)
	@mkdir -p $(dir $@)
	protoc-c --c_out=$(dir $@) -I$(dir $(PPROF_PROTO)) $(notdir $(PPROF_PROTO))
$(BUILD)/gen/profile.pb-c.o: $(BUILD)/gen/profile.pb-c.c
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/src/report/pprof.o: $(BUILD)/gen/profile.pb-c.h
$(BUILD)/tests/test_pprof: | $(BUILD)/gen/profile.pb-c.h

$(BUILD)/libpp.a: $(LIB_OBJS)
	rm -f $@; ar rcs $@ $^

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libpp.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -Itests/unit -o $@ $< $(BUILD)/libpp.a $(LDLIBS)

$(BUILD)/work/%: tests/work/%.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -fno-omit-frame-pointer -fno-inline -Wall -o $@ $< -lpthread

# A sub-make shares the jobs of `make -jN`; called without -j, it takes one
# job per CPU (the ASan builds below are minutes of compiling).
SUB_J = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc))

workloads: $(WORK_BINS)
	$(MAKE) $(SUB_J) -C tests/work BUILD=$(abspath $(BUILD))/work extra

unit: $(UNIT_BINS)

# The layers point down (scripts/check-layers.sh; no root needed), then the
# unit and integration tests.
check-layers:
	scripts/check-layers.sh

check: check-layers $(PP_BIN) unit workloads
	tests/run.sh $(BUILD)

# Unit tests under AddressSanitizer + UndefinedBehaviorSanitizer.
check-asan:
	$(MAKE) $(SUB_J) BUILD=build-asan CC=clang \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" unit
	tests/run.sh build-asan unit

# The integration tests against an ASan + UBSan build of the binary (leaks of
# the libraries, not ours to fix, are listed in tests/lsan.supp).
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
check-asan-integ:
	$(MAKE) $(SUB_J) BUILD=build-asan CC=clang \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" build-asan/perf-prof workloads
	$(ASAN_ENV) tests/run.sh build-asan integ

# libFuzzer targets (clang).  FUZZ_TIME seconds each.  The library is
# compiled once for all of them (fuzzer-no-link), then each target linked.
FUZZ_TIME ?= 60
FUZZ_CFLAGS := -std=gnu11 -O1 -g -D_GNU_SOURCE -Isrc -Ibuild-fuzz/gen $(PKG_CFLAGS)
FUZZ_OBJS := $(LIB_SRCS:%.c=build-fuzz/obj/%.o) build-fuzz/obj/gen/profile.pb-c.o
FUZZ_BINS := $(FUZZ_SRCS:fuzz/%.c=build-fuzz/%)

build-fuzz/obj/%.o: %.c | build-fuzz/gen/expr_syscalls.h build-fuzz/gen/profile.pb-c.h
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c -o $@ $<

build-fuzz/obj/gen/profile.pb-c.o: build-fuzz/gen/profile.pb-c.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -c -o $@ $<

build-fuzz/fuzz_%: fuzz/fuzz_%.c $(FUZZ_OBJS)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_OBJS) $(LDLIBS)

# kept after the run (make would delete them as intermediates of the
# targets' pattern rule, and the next `make fuzz` would compile them all again)
.SECONDARY: $(FUZZ_OBJS) build-fuzz/gen/expr_syscalls.h build-fuzz/gen/profile.pb-c.c \
	build-fuzz/gen/profile.pb-c.h

-include $(wildcard build-fuzz/obj/src/*/*/*.d build-fuzz/obj/src/*/*.d build-fuzz/obj/src/*.d)

# Each target runs as a make job of its own (fuzz-run-NAME), so `make -j2
# fuzz` runs two at a time; libFuzzer's output goes to build-fuzz/NAME.log,
# and its last lines are printed when it finds something.
FUZZ_RUNS := $(FUZZ_SRCS:fuzz/fuzz_%.c=fuzz-run-%)
fuzz: $(FUZZ_RUNS)
$(FUZZ_RUNS): fuzz-run-%: build-fuzz/fuzz_%
	@mkdir -p build-fuzz/corpus-$*
	@d=; [ -f fuzz/$*.dict ] && d=-dict=fuzz/$*.dict; \
	t0=$$(date +%s); \
	if build-fuzz/fuzz_$* -max_total_time=$(FUZZ_TIME) -timeout=5 -rss_limit_mb=2048 $$d \
		build-fuzz/corpus-$* fuzz/corpus/$* >build-fuzz/$*.log 2>&1; then \
		echo "fuzz_$*: $$(grep -E '^Done [0-9]+ runs' build-fuzz/$*.log) ($$(($$(date +%s) - t0)) s)"; \
	else \
		tail -n 60 build-fuzz/$*.log; \
		echo "fuzz_$*: FAILED (log: build-fuzz/$*.log)"; exit 1; \
	fi

# The man pages: perf-prof --man puts each one together from the option tables
# (what -h prints) and the hand-written page beside the profiler or command
# (src/prof/NAME.man.md, src/cmd/NAME.man.md, src/cli/perf-prof.man.md).
MAN_SRCS := $(shell find src -name '*.man.md')
man: $(BUILD)/man/perf-prof.1
$(BUILD)/man/perf-prof.1: $(PP_BIN) $(MAN_SRCS)
	rm -rf $(BUILD)/man.tmp && mkdir -p $(BUILD)/man.tmp
	./$(PP_BIN) --man src $(BUILD)/man.tmp
	rm -rf $(BUILD)/man && mv $(BUILD)/man.tmp $(BUILD)/man

# Install: the binary, the man pages (`make man`: $(BUILD)/man/*.1) and the
# bash completion.  PREFIX=/usr/local DESTDIR=/tmp/root as usual.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL ?= install
install: $(PP_BIN) man
	$(INSTALL) -D -m 0755 $(PP_BIN) $(DESTDIR)$(BINDIR)/perf-prof
	$(INSTALL) -d -m 0755 $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 0644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -D -m 0644 completion/perf-prof $(DESTDIR)$(BASHCOMPDIR)/perf-prof

# Removes the files install put (man pages by name: perf-prof.1,
# perf-prof-*.1), no directory.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/perf-prof $(DESTDIR)$(BASHCOMPDIR)/perf-prof \
		$(DESTDIR)$(MANDIR)/man1/perf-prof.1 $(DESTDIR)$(MANDIR)/man1/perf-prof-*.1

# The Debian package (debian/), built by dpkg-buildpackage in a copy of the
# tree: $(BUILD)/deb/perf-prof_VERSION_ARCH.deb.
deb:
	scripts/deb.sh $(BUILD)/deb

format:
	clang-format -i $$(find src tests fuzz -name '*.[ch]')

clean:
	rm -rf $(BUILD) build-asan build-fuzz perf-prof

.PHONY: all check check-layers check-asan check-asan-integ unit workloads fuzz $(FUZZ_RUNS) format clean install uninstall deb man
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
