# SPDX-License-Identifier: GPL-2.0-only
#
# mmx: build the module against Debian's kernel headers, the userspace and
# the tests; run the demo and the tests in a QEMU guest.
#
#   make            module + userspace + tests
#   make demo       README's main job: guests that show what mmx does
#                   (RandR 1.3 properties, rotation, keystone, panning,
#                   a timed commit); pictures in build/demo/
#   make check      every test (the modules built with W=1 C=1 for every
#                   kernel, host unit tests, then guest tests on Debian
#                   12's 6.1, Debian 13's 6.12 and trixie-backports' 7.x)
#   make bench      benchmarks (figures, not tests): the host ones, then
#                   mmxplay's 60 s A/V sync run in a guest
#   make install    libmmx, mmxd, mmxrandr, headers, pkg-config file and
#                   man pages (PREFIX=/usr/local, DESTDIR honoured); the
#                   module goes through kbuild's modules_install
#   make W=1 C=1    kbuild's extra warnings and sparse, as usual
#   make images     the guest root filesystems (Debian 12, Debian 13, Debian
#                   13 with the trixie-backports kernel) and the sid build
#                   root (tests/vm/image; cached under build/images/)
#   make module-trixie  the module for Debian 13's 6.12 kernel, built in
#                   the Debian 13 root (build/trixie/*.ko)
#   make module-trixie-backports  the same for the 7.x kernel of
#                   trixie-backports, in its root (build/trixie-backports)
#   make module-sid the same in the sid build root, against the newest
#                   headers there (tests/build-check builds against each
#                   of its headers: sid's own and trixie-backports')
#   make deb        the Debian packages (debian/: mmx-dkms, libmmx1,
#                   libmmx-dev, mmx-tools) in build/deb/, lintian-checked
#   make SANITIZE=1 libmmx, mmxd, mmx-jpegd and the
#                   host tests with AddressSanitizer and UBSan, in
#                   build/asan/ (never mixed with build/'s objects; no
#                   module); tests/sanitize-check runs them
#   make check-debug  the driver's guest tests, KUnit suites and fuzzer on
#                   the debug kernel (KASAN, lockdep, kmemleak, UBSAN...)
#   make debug-kernel  that kernel, built from linux-source-6.1 and
#                   tests/debug-kernel/debug.config (cached in
#                   build/debug-kernel/)
#   make module-debug  the modules and mmx_kunit.ko for it (build/debug/)

KVER ?= $(shell scripts/kver)
KDIR ?= /lib/modules/$(KVER)/build
BUILD := $(CURDIR)/build
ifeq ($(SANITIZE),1)
BUILD := $(CURDIR)/build/asan
endif
CHECK_ARGS ?=

.PHONY: all module module-trixie module-trixie-backports module-sid images userspace tests tools deps check demo bench deb module-debug debug-kernel check-debug install modules_install clean

ifeq ($(SANITIZE),1)
all: userspace
	$(MAKE) -C tests/unit BUILD=$(BUILD)
else
all: module userspace tests tools
endif

deps:
	scripts/install-deps

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

module-trixie module-trixie-backports module-sid: module-%:
	scripts/module-release --release $* $(if $(W),W=$(W)) $(if $(C),C=$(C))

# nice: it takes about 1,700 s of CPU and may run while other tests do
debug-kernel:
	nice scripts/debug-kernel

module-debug: debug-kernel
	scripts/module-debug $(if $(W),W=$(W)) $(if $(C),C=$(C))

# side by side: they wait on the network as much as on the CPU;
# trixie-backports starts from trixie's root, sid is a build root only
images:
	tests/vm/image --release bookworm & b=$$!; \
	tests/vm/image --release sid --root >/dev/null & s=$$!; \
	tests/vm/image --release trixie && \
	tests/vm/image --release trixie-backports; rc=$$?; \
	wait $$b || rc=1; wait $$s || rc=1; exit $$rc

userspace:
	@if [ -f userspace/Makefile ]; then $(MAKE) -C userspace BUILD=$(BUILD); fi

# test_lib_*, kms_mmx_libmmx and friends link build/lib/libmmx.a
tests: userspace
	$(MAKE) -C tests/unit BUILD=$(BUILD)
	@if [ -f tests/igt/Makefile ]; then $(MAKE) -C tests/igt BUILD=$(BUILD); fi
	$(MAKE) -C tests/fuzz BUILD=$(BUILD)

tools:
	@if [ -f tools/Makefile ]; then $(MAKE) -C tools BUILD=$(BUILD); fi

# The debootstraps of the guest images (minutes of downloads and dpkg) go
# on while the host builds.
check: deps
	mkdir -p $(BUILD); $(MAKE) images >$(BUILD)/images.log 2>&1 & pid=$$!; \
	$(MAKE) all && $(MAKE) SANITIZE=1 all; rc=$$?; wait $$pid || rc=1; \
	cat $(BUILD)/images.log; exit $$rc
	tests/run-all $(CHECK_ARGS)

check-debug: deps
	$(MAKE) module-debug
	$(MAKE) all && $(MAKE) SANITIZE=1 all
	tests/run-debug $(CHECK_ARGS)

demo: deps
	$(MAKE) all
	tests/vm/demo

# Host benchmarks: programs that print figures, never pass/fail.
bench: deps
	$(MAKE) -C bench BUILD=$(BUILD) run
	$(MAKE) all
	tests/vm/media-check --bench
	tests/vm/compose-bench

# dpkg-buildpackage in a copy of the tree under build/deb/src (it writes
# into the parent directory); the packages and lintian's report in build/deb
deb: deps
	scripts/build-deb $(BUILD)/deb

install: userspace
	$(MAKE) -C userspace BUILD=$(BUILD) install

modules_install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

# build/ goes first: kbuild's clean deletes every .ko under M, the guest
# roots' kernel modules included
clean:
	rm -rf $(BUILD)
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
