# iofleet: `make` builds build/iofleet and build/iofleet-agent.
#
#   make deps        install the missing Debian packages `make` needs (as root);
#                    `make deps-test` those the tests, demo and benchmarks need too
#   make deb         Debian packages iofleet and iofleet-agent in build/deb/
#   make test        unit and integration tests, plain and under ASan/UBSan
#   make demo        two agents on loopback and an NFS export, configs/demo.ini
#   make bench       the write workload beside dd and fio, the copy workload
#                    beside nfs-cp and cp, randrw beside sysbench and fio, 4K
#                    random reads and writes beside fio psync, one stream's 4K
#                    random reads and writes at depths 1..128 and 128K
#                    sequential ones at depth 16 (buffers in pages of 4K and
#                    in huge pages; a new file's first pass apart) on io_uring
#                    beside fio's io_uring,
#                    ratios and CPU per request; latency
#                    percentiles beside fio's on a file system of fixed latency,
#                    and one stream's requests in flight there (io_uring at
#                    depth 32 beside fio's, at depth 1 beside psync);
#                    a test's fixed cost and start skew with --metrics scraped
#                    every 100 ms and without; fio job files run by fio and by
#                    iofleet, rates side by side
#   make bench-scale 1, 16, 256, 1024 and 4096 agents on loopback: hello and clock,
#                    a test's fixed cost and its start skew beside that of as
#                    many bare processes, the console's memory, report sizes;
#                    and the wire bytes and console memory of latency
#                    timelines at 1024 agents
#   make fuzz        libFuzzer on the message decoder, the scenario parser and
#                    the histogram reader, FUZZ_SECONDS (60) each, corpora
#                    kept in build-fuzz/corpus/
#
# Every target that needs the libraries goes through `deps` first, then
# builds in a sub-make so that pkg-config runs after they are installed.

B    ?= build
SAN  ?= 0
# make test compiles its two builds with a job per core.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)

MSGPACK := $(shell pkg-config --exists msgpack-c 2>/dev/null && echo msgpack-c || echo msgpack)
PKGS    := libczmq libzmq $(MSGPACK) libnfs inih jansson sqlite3 liburing libmicrohttpd

# Messages are built with snprintf into bounded buffers and cut on purpose
# when a peer sends long names, so gcc's guesses at truncation are noise.
CC      ?= gcc
CFLAGS  += -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-format-truncation -D_GNU_SOURCE \
           $(shell pkg-config --cflags $(PKGS) 2>/dev/null) -MMD -MP
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm
# Every program is linked with the libraries of all PKGS, and records
# only those it calls: else the agent loads sqlite3 and jansson (half a
# megabyte of its resident memory) and its package depends on them.
# Debian's gcc does so unasked, but not under -fsanitize; others do not.
LDFLAGS += -Wl,--as-needed
ifeq ($(SAN),1)
CFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif

PROTO_SRC := $(wildcard proto/*.c)
AGENT_SRC := $(filter-out agent/main.c,$(wildcard agent/*.c agent/workloads/*.c agent/engines/*.c))
COORD_SRC := $(filter-out coordinator/main.c,$(wildcard coordinator/*.c coordinator/*/*.c))
UNIT_SRC  := $(wildcard tests/unit/*.c)

obj = $(patsubst %.c,$(B)/%.o,$(1))
PROTO_OBJ := $(call obj,$(PROTO_SRC))
AGENT_OBJ := $(call obj,$(AGENT_SRC))
COORD_OBJ := $(call obj,$(COORD_SRC))
UNIT_BIN  := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRC))

.PHONY: all deps deps-test deps-deb binaries docs units test test-build demo bench bench-scale \
        clean fuzz fuzz-build deb
all: deps
	@$(MAKE) --no-print-directory binaries docs

# A host that only builds installs only what building needs.
deps:
	@scripts/deps.sh build
deps-test:
	@scripts/deps.sh test
deps-deb:
	@scripts/deps.sh deb

binaries: $(B)/iofleet $(B)/iofleet-agent
units: $(UNIT_BIN)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/iofleet: $(B)/coordinator/main.o $(COORD_OBJ) $(PROTO_OBJ)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(B)/iofleet-agent: $(B)/agent/main.o $(AGENT_OBJ) $(PROTO_OBJ)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# Unit tests link the objects of the part their name begins with.
$(B)/tests/proto_%: $(B)/tests/unit/proto_%.o $(PROTO_OBJ)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -lcmocka -o $@
$(B)/tests/agent_%: $(B)/tests/unit/agent_%.o $(AGENT_OBJ) $(PROTO_OBJ)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -lcmocka -o $@
$(B)/tests/coord_%: $(B)/tests/unit/coord_%.o $(COORD_OBJ) $(PROTO_OBJ)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -lcmocka -o $@

# Manual pages and shell completion, written by the programs from the
# tables that drive their --help (coordinator/commands/cli.h, agent/settings.c,
# proto/jobspec.c), so that they cannot drift.
MAN_PAGES  := $(B)/man/iofleet.1 $(B)/man/iofleet-scenario.5 $(B)/man/iofleet-agent.8 \
              $(B)/man/iofleet.7
COMPLETION := $(B)/completion/iofleet $(B)/completion/iofleet-agent
docs: $(MAN_PAGES) $(COMPLETION)

$(B)/man/iofleet.1 $(B)/man/iofleet-scenario.5: $(B)/iofleet
	@mkdir -p $(dir $@)
	$(B)/iofleet --man $(notdir $@) > $@.tmp && mv $@.tmp $@
$(B)/man/iofleet-agent.8: $(B)/iofleet-agent
	@mkdir -p $(dir $@)
	$(B)/iofleet-agent --man > $@.tmp && mv $@.tmp $@
# iofleet(7), the prose of how iofleet measures, is written in Markdown
# (docs/iofleet.7.md, readable where the source is browsed) and set as a
# manual page by lowdown.
$(B)/man/iofleet.7: docs/iofleet.7.md
	@mkdir -p $(dir $@)
	lowdown -s -Tman $< > $@.tmp && mv $@.tmp $@
$(B)/completion/%: $(B)/% scripts/completion.bash
	@mkdir -p $(dir $@)
	{ $(B)/$* --completion && cat scripts/completion.bash; } > $@.tmp && mv $@.tmp $@

test-build: binaries units docs

# The packages, built from a copy of the checkout in build/deb/ (see
# scripts/deb.sh); the version is IOFLEET_VERSION of proto/version.h.
deb: deps-deb
	@scripts/deb.sh $(B)/deb

# The whole suite twice: a plain build, then one under ASan and UBSan.
test: deps-test
	@$(MAKE) --no-print-directory -j$(JOBS) B=build test-build
	@$(MAKE) --no-print-directory -j$(JOBS) B=build-asan SAN=1 test-build
	@tests/run.sh build build-asan

demo: deps-test
	@$(MAKE) --no-print-directory binaries docs
	@scripts/demo.sh build

# Fuzz targets: clang with libFuzzer, ASan and UBSan, built from the
# sources directly (the objects above are gcc's).
FUZZ_B       ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS  := -std=gnu11 -O1 -g -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=undefined $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
FUZZ_BIN     := $(FUZZ_B)/fuzz_msg $(FUZZ_B)/fuzz_scenario $(FUZZ_B)/fuzz_histogram

$(FUZZ_B)/fuzz_msg: tests/fuzz/fuzz_msg.c $(PROTO_SRC) $(wildcard proto/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_msg.c $(PROTO_SRC) $(LDLIBS) -o $@
$(FUZZ_B)/fuzz_histogram: tests/fuzz/fuzz_histogram.c tests/unit/histogram_bytes.h $(PROTO_SRC) \
                          $(wildcard proto/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_histogram.c $(PROTO_SRC) $(LDLIBS) -o $@
SCENARIO_SRC := $(wildcard coordinator/scenario/scenario*.c coordinator/scenario/group*.c) \
                coordinator/scenario/fio_keys.c
$(FUZZ_B)/fuzz_scenario: tests/fuzz/fuzz_scenario.c $(SCENARIO_SRC) \
                         $(PROTO_SRC) $(wildcard coordinator/scenario/*.h proto/*.h)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_scenario.c $(SCENARIO_SRC) $(PROTO_SRC) $(LDLIBS) -o $@

fuzz-build: $(FUZZ_BIN)

fuzz: deps-test
	@$(MAKE) --no-print-directory fuzz-build
	@tests/fuzz/run.sh $(FUZZ_B) $(FUZZ_SECONDS)

bench: deps-test
	@$(MAKE) --no-print-directory binaries
	@tests/bench/write.sh build
	@tests/bench/copy.sh build
	@tests/bench/read.sh build
	@tests/bench/bonnie.sh build
	@tests/bench/randrw.sh build
	@tests/bench/random4k.sh build
	@tests/bench/uring.sh build
	@tests/bench/latency.sh build
	@tests/bench/fusedepth.sh build
	@tests/bench/metrics.sh build
	@tests/bench/fiojobs.sh build

bench-scale: deps-test
	@$(MAKE) --no-print-directory binaries
	@tests/bench/scale.sh build
	@tests/bench/timeline.sh build

clean:
	rm -rf build build-asan build-fuzz

# (build/deb/ holds a copy of the tree, with directories named *.d.)
-include $(shell find $(B) -path $(B)/deb -prune -o -name '*.d' -type f -print 2>/dev/null)
