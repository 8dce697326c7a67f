# SPDX-License-Identifier: MIT
# baretop: one entry point. `make` builds build/baretop.efi (GNU-EFI + newlib)
# and the hosted tools; `make test` runs the whole suite; `make run` boots the
# app in QEMU + OVMF. See README.md.
#
# Which file goes where is decided by its place and name, so adding a file
# never means editing this Makefile:
#   $(PORTABLE_DIRS)                        portable C11: built hosted AND into the EFI app
#     *-host.c                              ...hosted only (POSIX helpers)
#     *-ring0.c, *.S                        ...EFI app only (privileged code)
#   $(HOST_ONLY_DIRS)                       hosted only: analysis after the run (pages,
#                                           diff, fleet, perf-stat import) and the hosted platform
#   efi/*.c                                 EFI app only; the only files that see <efi.h>
#   tools/<name>/*.c                        a host program build/<name>
#   tests/unit/test-*.c                     one hosted test program each, with tests/unit/lib/*.c
#   tests/fuzz/fuzz-*.c                     libFuzzer targets (clang; make fuzz), seeds in corpus/

.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY:
.DEFAULT_GOAL := all
MAKEFLAGS += --no-builtin-rules

ifeq ($(origin CC),default)
CC := gcc
endif
BUILD ?= build
V ?= 0
Q := $(if $(filter 1,$(V)),,@)
SAN ?= 0

CC_IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -q clang && echo 1)
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wno-unused-parameter
# Debian 11's gcc 10.2.1 (the glibc 2.31 build) counts a field left out of
# a designated initializer as missing, where gcc 12 does not; baretop's
# tables leave fields out by design.
GCC_MAJOR := $(if $(CC_IS_CLANG),,$(shell $(CC) -dumpversion 2>/dev/null | cut -d. -f1))
WARN += $(if $(filter 5 6 7 8 9 10,$(GCC_MAJOR)),-Wno-missing-field-initializers)
COMMON_CFLAGS := -std=c11 -O2 -g $(WARN) -I. -fno-strict-aliasing -D_DEFAULT_SOURCE

# ---------------------------------------------------------------- sources
PORTABLE_DIRS := base arch arch/sim synth pmu metrics metrics/gen report workloads firmware kernels validate validate/gen app
ALL_PORTABLE := $(foreach d,$(PORTABLE_DIRS),$(wildcard $(d)/*.c))
HOST_ONLY_DIRS := analysis host
HOST_ONLY_SRCS := $(filter %-host.c,$(ALL_PORTABLE)) $(foreach d,$(HOST_ONLY_DIRS),$(wildcard $(d)/*.c))
RING0_SRCS := $(filter %-ring0.c,$(ALL_PORTABLE))
PORTABLE_SRCS := $(filter-out %-host.c %-ring0.c,$(ALL_PORTABLE))
EFI_SRCS := $(wildcard efi/*.c)
EFI_ASM := $(foreach d,efi $(PORTABLE_DIRS),$(wildcard $(d)/*.S))

# ---------------------------------------------------------------- hosted build
CFG := $(if $(CC_IS_CLANG),-clang)$(if $(filter 1,$(SAN)),-san)
HOST_DIR := $(BUILD)/host$(CFG)
HOST_CFLAGS := $(COMMON_CFLAGS) -D_DEFAULT_SOURCE -DBT_HOSTED=1 -MMD -MP
HOST_LDFLAGS :=
ifeq ($(SAN),1)
HOST_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -O1
HOST_LDFLAGS += -fsanitize=address,undefined
# gcc's variable tracking (debug info only: where a variable lives at each
# instruction; the code and the checks are the same without it) takes
# 50-80 % of an ASan compile of the large test files at -O1 (-ftime-report:
# test-measure.c 6.5 s, 1.8 s without); ASan reports keep file:line.
ifneq ($(CC_IS_CLANG),1)
HOST_CFLAGS += -fno-var-tracking-assignments
endif
endif
HOST_LIBS := -lm -lpthread

HOST_LIB_OBJS := $(patsubst %.c,$(HOST_DIR)/%.o,$(PORTABLE_SRCS) $(HOST_ONLY_SRCS))
HOST_LIB := $(HOST_DIR)/libbaretop.a

TOOL_DIRS := $(patsubst tools/%/,%,$(sort $(dir $(wildcard tools/*/*.c))))
tool_bin = $(BUILD)/$(1)$(CFG)
TOOL_BINS := $(foreach t,$(TOOL_DIRS),$(call tool_bin,$(t)))

TEST_LIB_SRCS := $(wildcard tests/unit/lib/*.c)
TEST_SRCS := $(filter-out tests/unit/lib/%,$(wildcard tests/unit/*/test-*.c))
TEST_BINS := $(foreach s,$(TEST_SRCS),$(HOST_DIR)/tests/$(basename $(notdir $(s))))

$(HOST_DIR)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)$(CC) $(HOST_CFLAGS) -c $< -o $@

$(HOST_LIB): $(HOST_LIB_OBJS)
	@echo "  AR    $@"
	$(Q)rm -f $@ && ar rcs $@ $^

# Libraries one host tool needs beyond HOST_LIBS (TOOL_LIBS_<name>): only
# that tool links them; the EFI app and the other tools never do.
TOOL_LIBS_baretop-host := -lsqlite3 -lpq   # `fleet`: the fleet database (Debian libsqlite3-dev; libpq-dev for --db postgresql://)
# libpq-fe.h is in Debian's libpq-dev under include/postgresql: only the
# PostgreSQL engine of `fleet` includes it.
PG_INCLUDE := $(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
$(HOST_DIR)/tools/baretop-host/fleet/pg.o $(HOST_DIR)/tools/baretop-host/fleet/pg-summary.o: HOST_CFLAGS += -I$(PG_INCLUDE)

define tool_rule
$(call tool_bin,$(1)): $(patsubst %.c,$(HOST_DIR)/%.o,$(wildcard tools/$(1)/*.c tools/$(1)/*/*.c)) $(HOST_LIB)
	@echo "  LD    $$@"
	$(Q)$(CC) $(HOST_LDFLAGS) -o $$@ $$^ $(HOST_LIBS) $(TOOL_LIBS_$(1))
endef
$(foreach t,$(TOOL_DIRS),$(eval $(call tool_rule,$(t))))

# A test program is named after its file: tests/unit/pmu/test-plan.c -> tests/test-plan.
define test_rule
$(HOST_DIR)/tests/$(basename $(notdir $(1))): $(HOST_DIR)/$(1:.c=.o) $(patsubst %.c,$(HOST_DIR)/%.o,$(TEST_LIB_SRCS)) $(HOST_LIB)
	@mkdir -p $$(@D)
	@echo "  LD    $$@"
	$(Q)$(CC) $(HOST_LDFLAGS) -o $$@ $$^ $(HOST_LIBS)
endef
$(foreach s,$(TEST_SRCS),$(eval $(call test_rule,$(s))))

# ---------------------------------------------------------------- fuzzing
# libFuzzer targets (clang); each runs briefly in the suite (FUZZ_SECONDS).
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_DIR := $(BUILD)/fuzz
# -gline-tables-only: a finding's stack trace keeps its file:line, without
# the rest of the debug info (the same code; ~15 % less compile time).
FUZZ_CFLAGS := $(COMMON_CFLAGS) -D_DEFAULT_SOURCE -DBT_HOSTED=1 -MMD -MP -O1 -gline-tables-only \
  -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_DIR)/%.o,$(PORTABLE_SRCS) $(HOST_ONLY_SRCS))
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/%,$(FUZZ_SRCS))
FUZZ_SECONDS ?= 6
FUZZ_KEEP ?= 0

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)clang $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/fuzz-%: $(FUZZ_DIR)/tests/fuzz/fuzz-%.o $(FUZZ_LIB_OBJS)
	@echo "  LD    $@"
	$(Q)clang -fsanitize=fuzzer,address,undefined -o $@ $^ -lm -lpthread

# ---------------------------------------------------------------- EFI build
# newlib is built once from Debian's newlib-source and cached outside the tree
# (tools/build-newlib.sh keys the cache on its flags).
NEWLIB := $(shell bash tools/build-newlib.sh --dir)
GNUEFI_LIB := /usr/lib
GNUEFI_INC := /usr/include/efi
EFI_DIR := $(BUILD)/efi$(if $(CC_IS_CLANG),-clang)
CC_INCLUDE := $(shell $(CC) -print-file-name=include)
LIBGCC := $(shell gcc -print-libgcc-file-name)

# The stack protector as systemd-boot builds with it. There is no TLS in the
# EFI app: the canary is a global (-mstack-protector-guard=global) that
# efi/stack-guard.c sets at entry and checks fail through the fault reporter.
EFI_CFLAGS := $(COMMON_CFLAGS) -DBT_UEFI=1 -MMD -MP \
  -fpic -fshort-wchar -mno-red-zone -fstack-protector-strong -mstack-protector-guard=global \
  -fno-asynchronous-unwind-tables \
  -fno-unwind-tables -ffunction-sections -nostdinc -isystem $(NEWLIB)/include -isystem $(CC_INCLUDE)
ifneq ($(CC_IS_CLANG),1)
EFI_CFLAGS += -maccumulate-outgoing-args
endif
# Only efi/ sees the UEFI headers: the layering rule is enforced by the compiler.
EFI_PLATFORM_CFLAGS := -isystem $(GNUEFI_INC) -isystem $(GNUEFI_INC)/x86_64 -isystem $(GNUEFI_INC)/protocol \
  -DGNU_EFI_USE_MS_ABI -DGNU_EFI_USE_EXTERNAL_STDARG

EFI_OBJS := $(patsubst %.c,$(EFI_DIR)/%.o,$(PORTABLE_SRCS) $(RING0_SRCS) $(EFI_SRCS)) \
            $(patsubst %.S,$(EFI_DIR)/%.o,$(EFI_ASM))

$(NEWLIB)/.complete: tools/build-newlib.sh
	$(Q)bash tools/build-newlib.sh >/dev/null

# Which newlib the objects were built against: a different cache folder
# (BARETOP_CACHE, changed flags) must rebuild and relink, even when that
# folder's .complete is older than the objects.
NEWLIB_STAMP := $(EFI_DIR)/newlib.path
ifeq ($(filter clean,$(MAKECMDGOALS)),)
$(shell mkdir -p $(EFI_DIR) && (echo '$(NEWLIB)' | cmp -s - $(NEWLIB_STAMP) || echo '$(NEWLIB)' > $(NEWLIB_STAMP)))
endif

$(EFI_DIR)/efi/%.o: efi/%.c $(NEWLIB)/.complete $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)$(CC) $(EFI_CFLAGS) $(EFI_PLATFORM_CFLAGS) -c $< -o $@

# Code that decides, reports and writes, never inside a counting window
# (those run in pmu/, arch/ and the bodies of kernels/ and workloads/,
# whose instruction counts are declared and checked), the platform and
# the lowest layer (efi/, base/), and the simulated PMU with its count
# models (arch/sim/, synth/: what they count comes from models, not from
# the instructions they execute): optimised for size, so baretop.efi stays
# within its budget (tests/suite/11-efi-size.sh). clang's -Os code is
# larger than gcc's (its image ~37 KB larger); its -Oz takes 19 KB of that
# back. gcc's -Oz would save only 4 KB, and the gcc image is the one the
# QEMU steps run, so gcc keeps -Os.
$(filter $(EFI_DIR)/app/% $(EFI_DIR)/report/% $(EFI_DIR)/validate/% $(EFI_DIR)/firmware/% \
  $(EFI_DIR)/metrics/% $(EFI_DIR)/arch/sim/% $(EFI_DIR)/synth/% $(EFI_DIR)/base/% $(EFI_DIR)/efi/%,$(EFI_OBJS)): \
  EFI_CFLAGS += $(if $(CC_IS_CLANG),-Oz,-Os)

$(EFI_DIR)/%.o: %.c $(NEWLIB)/.complete $(NEWLIB_STAMP)
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)$(CC) $(EFI_CFLAGS) -c $< -o $@

$(EFI_DIR)/%.o: %.S
	@mkdir -p $(@D)
	@echo "  AS    $@"
	$(Q)$(CC) -fpic -DBT_UEFI=1 -MMD -MP -I. $(EFI_ASFLAGS) -c $< -o $@

# The .sbat component line's vendor_url (efi/sbat.S; shim's SBAT.md: "url
# to look stuff up, contact"): the home of the tree built. `make
# SBAT_URL=https://...` sets it; by default it is the web address of the
# clone's origin remote (an scp-style git@host:path made https://host/path),
# and a clone with no remote, or one whose origin is a local folder or any
# other non-web address (as CI's clones are), keeps app/version.h's
# reserved placeholder, which tests/suite/65-boot-image.sh names. A changed value rebuilds
# efi/sbat.o (the stamp holds the last one).
SBAT_URL ?= $(shell git remote get-url origin 2>/dev/null | sed -E 's,^git@([^:]+):,https://\1/,; s,\.git$$,,' | grep -E '^https?://[^/]+' )
ifneq ($(SBAT_URL),)
ifeq ($(shell echo '$(SBAT_URL)' | grep -E '^https?://[^/]+'),)
$(error SBAT_URL '$(SBAT_URL)' is not an absolute http(s) URL with a host)
endif
endif
SBAT_URL_STAMP := $(EFI_DIR)/sbat-url
ifeq ($(filter clean,$(MAKECMDGOALS)),)
$(shell mkdir -p $(EFI_DIR) && (echo '$(SBAT_URL)' | cmp -s - $(SBAT_URL_STAMP) || echo '$(SBAT_URL)' > $(SBAT_URL_STAMP)))
endif
$(EFI_DIR)/efi/sbat.o: $(SBAT_URL_STAMP)
$(EFI_DIR)/efi/sbat.o: EFI_ASFLAGS += $(if $(SBAT_URL),-DBT_SBAT_URL='"$(SBAT_URL)"')

# gnu-efi's libefi.a defines memset/memcpy too; newlib's must win.
$(EFI_DIR)/libefi-weak.a: $(GNUEFI_LIB)/libefi.a
	@mkdir -p $(@D)
	$(Q)objcopy --weaken-symbol=memset --weaken-symbol=memcpy $< $@

# The image's size (960 KiB budget, tests/suite/11-efi-size.sh):
#  - --gc-sections drops the functions (-ffunction-sections) and objects no
#    code reaches from _start. Not -fdata-sections: its .bss.* sections
#    match no rule of gnu-efi's elf_x86_64_efi.lds (which folds .bss into
#    .data), so ld would place them as orphans that objcopy leaves out.
#    Two sections nothing refers to must stay: crt0's .reloc (the dummy
#    base-relocation block that keeps the PE from being marked "relocs
#    stripped"; its label is made global here so -u roots it) and .sbat
#    (efi/sbat.S marks it retained, "R"); the link checks both are there.
#  - efi/exports.ver: no dynamic symbols (the .dynsym objcopy copies
#    was 26 KB of names nothing reads: the image's _relocate applies
#    R_X86_64_RELATIVE relocations, which need no symbol).
#  - -z pack-relative-relocs: those relocations as RELR (.relr.dyn, 8 bytes
#    per run of pointers) instead of RELA (.rela, 24 bytes per pointer):
#    ~1.3 KB instead of ~86 KB. gnu-efi's _relocate reads only RELA, so
#    efi/relocate.c replaces it (base/elf-reloc.h applies both); the link
#    checks that the image has its RELR table and that libgnuefi.a's
#    relocator was not linked. In the PE the section is .relr: a name over
#    8 characters would need a COFF string table after the sections, a gap
#    sbsign warns of (_relocate finds the table through _DYNAMIC anyway).
$(EFI_DIR)/crt0-efi-x86_64.o: $(GNUEFI_LIB)/crt0-efi-x86_64.o
	@mkdir -p $(@D)
	$(Q)objcopy --globalize-symbol=label1 $< $@

$(EFI_DIR)/baretop.so: $(EFI_OBJS) $(EFI_DIR)/libefi-weak.a $(EFI_DIR)/crt0-efi-x86_64.o efi/exports.ver
	@echo "  LD    $@"
	$(Q)ld -nostdlib -znocombreloc -shared -Bsymbolic -z noexecstack -T $(GNUEFI_LIB)/elf_x86_64_efi.lds \
	  --gc-sections -z pack-relative-relocs -u label1 --version-script=efi/exports.ver \
	  $(EFI_DIR)/crt0-efi-x86_64.o $(EFI_OBJS) -L$(NEWLIB)/lib \
	  --start-group -lc -lm $(EFI_DIR)/libefi-weak.a $(GNUEFI_LIB)/libgnuefi.a $(LIBGCC) --end-group \
	  -Map=$(EFI_DIR)/baretop.map -o $@
	$(Q)if nm -D $@ 2>/dev/null | grep -q ' U '; then \
	  echo "error: unresolved symbols in $@:"; nm -D $@ | grep ' U '; exit 1; fi
	$(Q)for s in .reloc .sbat; do readelf -SW $@ | grep -q " $$s " || { \
	  echo "error: $@ lost section $$s (--gc-sections)"; exit 1; }; done
	$(Q)readelf -dW $@ | grep -q '(RELR)' && ! grep -q 'libgnuefi.a(reloc_' $(EFI_DIR)/baretop.map || { \
	  echo "error: $@: relocations not packed as RELR, or gnu-efi's RELA-only _relocate linked (efi/relocate.c)"; exit 1; }

# .sbat (efi/sbat.S): shim's SBAT data. --strip-all: no COFF symbol table
# after the sections (deprecated in images; sbsign warns of the gap).
# tools/pe-nx-compat.sh: NX_COMPAT in DllCharacteristics, after checking
# the image is W^X (gnu-efi's elf_x86_64_efi.lds keeps code alone in .text,
# page-aligned; objcopy has no option for the bit). Written to a temporary
# name first: a failed check leaves no image that make thinks is done.
$(BUILD)/baretop$(if $(CC_IS_CLANG),-clang).efi: $(EFI_DIR)/baretop.so tools/pe-nx-compat.sh
	@echo "  EFI   $@"
	$(Q)objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela \
	  -j '.rel.*' -j '.rela.*' -j .relr.dyn --rename-section .relr.dyn=.relr -j .reloc -j .sbat --strip-all --target efi-app-x86_64 --subsystem=10 $< $@.tmp
	$(Q)sh tools/pe-nx-compat.sh $@.tmp && mv $@.tmp $@
	@echo "  SIZE  $@: $$(stat -c %s $@) bytes (budget 983040: tests/suite/11-efi-size.sh)"

EFI_APP := $(BUILD)/baretop$(if $(CC_IS_CLANG),-clang).efi

# Test EFI applications (tests/efi/*.c): plain gnu-efi, no C library, run by
# the QEMU tests (e.g. as `baretop -x` workloads).
TEST_EFI_SRCS := $(wildcard tests/efi/*.c)
TEST_EFI_APPS := $(patsubst tests/efi/%.c,$(BUILD)/tests/%.efi,$(TEST_EFI_SRCS))

$(EFI_DIR)/tests/efi/%.so: tests/efi/%.c
	@mkdir -p $(@D)
	@echo "  CC    $@"
	$(Q)$(CC) -std=c11 -O2 -Wall -Wextra -Werror -fpic -fshort-wchar -mno-red-zone \
	  -fno-stack-protector -ffreestanding $(EFI_PLATFORM_CFLAGS) -c $< -o $(@:.so=.o)
	$(Q)ld -nostdlib -znocombreloc -shared -Bsymbolic -z noexecstack -T $(GNUEFI_LIB)/elf_x86_64_efi.lds \
	  $(GNUEFI_LIB)/crt0-efi-x86_64.o $(@:.so=.o) $(GNUEFI_LIB)/libefi.a $(GNUEFI_LIB)/libgnuefi.a -o $@

# --strip-all and NX_COMPAT as for baretop.efi: they are signed too and
# started under shim's NX policy (the Secure Boot step).
$(BUILD)/tests/%.efi: $(EFI_DIR)/tests/efi/%.so tools/pe-nx-compat.sh
	@mkdir -p $(@D)
	@echo "  EFI   $@"
	$(Q)objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela \
	  -j '.rel.*' -j '.rela.*' -j .reloc --strip-all --target efi-app-x86_64 --subsystem=10 $< $@.tmp
	$(Q)sh tools/pe-nx-compat.sh $@.tmp && mv $@.tmp $@

# ---------------------------------------------------------------- targets
.PHONY: all efi host tests check test test-host run bench fuzz clean setup
all: efi host
efi: $(EFI_APP) $(if $(CC_IS_CLANG),,$(TEST_EFI_APPS))
host: $(HOST_LIB) $(TOOL_BINS)
tests: $(TEST_BINS)

# Hosted unit tests (use SAN=1 for ASan + UBSan).
check: $(TEST_BINS) $(TOOL_BINS)
	$(Q)BUILD=$(BUILD) HOST_DIR=$(HOST_DIR) bash tests/run-unit.sh $(TEST_BINS)

# The whole suite, as CI runs it. README's test command. test-host: the
# builds, the unit tests and every step that does not boot QEMU
# (tests/suite/README.md).
test:
	$(Q)bash tests/run-all.sh

test-host:
	$(Q)bash tests/run-all.sh --tier host

# Build and boot baretop in QEMU + OVMF. README's run command.
QEMU_ARGS ?=
run: $(EFI_APP)
	$(Q)bash qemu/run.sh --show --efi $(EFI_APP) $(QEMU_ARGS)

# Host benchmarks: every tools/bench-*/ program, built optimised, no sanitizers.
bench: $(filter $(BUILD)/bench-%,$(TOOL_BINS))
	$(Q)bash tests/run-bench.sh $^

fuzz: $(FUZZ_BINS)
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_KEEP=$(FUZZ_KEEP) bash tests/run-fuzz.sh $^

setup:
	$(Q)bash tools/setup.sh

clean:
	rm -rf $(BUILD)

# (not inside tools/fresh-root.sh's root, kept in build/fresh-root by
# default: its files named *.d are not make's, and its /proc is mounted)
-include $(shell find $(BUILD) -path $(BUILD)/fresh-root -prune -o -name '*.d' -type f -print 2>/dev/null)
