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

.PHONY: all lib demo cython-demo cython-test cython-ops cython-gil cython-own bench-cython test check-header check-pxd check-version header-alone rust-test c-test valgrind numpy-test readme-example bench icount besttime miri clean

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

# --- demo ---------------------------------------------------------------------------------
EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))

$(BUILD)/examples/%: examples/%.c examples/common.h include/memviewslice.h lib
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(STRICT) -O2 -Iinclude $< -o $@ $(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)

demo: lib $(EXAMPLES) cython-demo
	@for e in $(EXAMPLES); do echo "== $$e"; $$e || exit 1; done

# Cython modules are built by tools/build_ext.py with the venv's Cython, against the static library.
CYBUILD := $(VPY) tools/build_ext.py

cython-demo: lib $(VPY)
	@for m in flat_buffer corner handoff; do $(CYBUILD) examples/cython/$$m.pyx --out $(BUILD)/examples/cython >/dev/null || exit 1; done
	PYTHONPATH=$(BUILD)/examples/cython $(VPY) examples/cython/run.py

# --- tests --------------------------------------------------------------------------------
test: check-header check-pxd check-version header-alone rust-test c-test valgrind numpy-test cython-test readme-example

# The header in git must equal what the build generates (build.rs rewrites it on change).
check-header: lib
	@if git rev-parse --git-dir >/dev/null 2>&1; then \
	  git diff --exit-code --stat -- include/memviewslice.h || \
	  { echo "include/memviewslice.h differs from the generated header: commit it"; exit 1; }; \
	fi

# The typed Cython helpers in git (mvs_pyx.h, mvs_helpers.pxi, mvs_<dtype>.pxd) must equal what
# tools/gen_pxd.py writes.
check-pxd:
	@rm -rf $(BUILD)/pxd && $(PYTHON) tools/gen_pxd.py --out $(BUILD)/pxd
	@for f in $(BUILD)/pxd/*; do cmp -s $$f include/$$(basename $$f) || \
	  { echo "include/$$(basename $$f) differs from tools/gen_pxd.py's output: run it and commit"; exit 1; }; done
	@test $$(ls include/mvs_*.pxd include/mvs_helpers.pxi include/mvs_pyx.h | wc -l) -eq $$(ls $(BUILD)/pxd | wc -l) || { echo "stray include/mvs_*.pxd"; exit 1; }

# The header's MVS_VERSION and the library's SONAME agree with Cargo.toml's version.
check-version: lib
	grep -q '^#define MVS_VERSION "$(VERSION)"$$' include/memviewslice.h
	readelf -d $(LIBDIR)/libmemviewslice.so | grep -q 'Library soname: \[$(SONAME)\]'

# The header compiles on its own, as C11 and as C++, with strict warnings.
header-alone:
	echo '#include "memviewslice.h"' | $(CC) -std=c11 $(STRICT) -Iinclude -fsyntax-only -x c -
	echo '#include "memviewslice.h"' | $(CXX) -std=c++11 $(STRICT) -Iinclude -fsyntax-only -x c++ -

rust-test:
	$(CARGO) test --release

# Every C test as C11 and as C++, under ASan+UBSan, against the shared and the static library.
C_TESTS := $(wildcard c_tests/*.c)
C_VARIANTS := c-shared c-static cxx-shared cxx-static

c-test: lib
	@mkdir -p $(BUILD)/c_tests
	@set -e; for t in $(C_TESTS); do n=$$(basename $$t .c); \
	  for v in $(C_VARIANTS); do \
	    case $$v in c-*) comp="$(CC) -std=c11";; cxx-*) comp="$(CXX) -x c++ -std=c++17";; esac; \
	    case $$v in *-shared) link="-L$(LIBDIR) -Wl,-rpath,$(CURDIR)/$(LIBDIR) -lmemviewslice";; \
	                *-static) link="$(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)";; esac; \
	    out=$(BUILD)/c_tests/$$n-$$v; \
	    $$comp $(STRICT) $(SANITIZE) -pthread -g -Iinclude $$t -x none -o $$out $$link; \
	    echo "== $$out"; ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $$out; \
	  done; done

# The ownership tests without sanitizers under valgrind, which also sees the Rust code (ASan
# instruments only the C side): no leak, no invalid access, against the shared and the static
# library. Skipped, with a message, where valgrind is not installed (nothing is installed here).
VALGRIND_TESTS := test_buffer test_buffer_threads test_pool
VALGRIND := valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible

valgrind: lib
	@if ! command -v valgrind >/dev/null 2>&1; then \
	  echo "valgrind: SKIPPED, valgrind is not installed (Debian: apt-get install valgrind)"; exit 0; fi; \
	mkdir -p $(BUILD)/valgrind; set -e; for n in $(VALGRIND_TESTS); do \
	  for v in shared static; do \
	    case $$v in shared) link="-L$(LIBDIR) -Wl,-rpath,$(CURDIR)/$(LIBDIR) -lmemviewslice";; \
	                static) link="$(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)";; esac; \
	    out=$(BUILD)/valgrind/$$n-$$v; \
	    $(CC) -std=c11 $(STRICT) -pthread -g -Iinclude c_tests/$$n.c -o $$out $$link; \
	    echo "== valgrind $$out"; $(VALGRIND) $$out; \
	  done; done

numpy-test: lib $(VPY)
	$(VPY) tests/numpy_oracle.py $(LIBDIR)/libmemviewslice.so

# --- other --------------------------------------------------------------------------------
bench: bench-cython
	$(CARGO) bench --bench views
	$(CARGO) bench --bench ownership

# The Cython bridge against Cython's own slicing, NumPy and a pointer cast, from Python (prints
# a table; missed targets are reported, not failures).
bench-cython: lib $(VPY)
	$(CYBUILD) benches/cython_bench.pyx --out $(BUILD)/benches/cython --name cython_bench_ext >/dev/null
	PYTHONPATH=$(BUILD)/benches/cython $(VPY) benches/cython_bench.py
	$(CYBUILD) benches/pool_bench.pyx --out $(BUILD)/benches/pool --name pool_bench_ext >/dev/null
	PYTHONPATH=$(BUILD)/benches/pool $(VPY) benches/pool_bench.py

# The hot derivations called from C (benches/icount.c): instructions per call under callgrind
# (stable under machine load), and the best of 30 interleaved timing rounds against the floor.
# The c_ ops are the hand-written C references of benches/reference.c, built at -O3 as the best
# case for C (at -O2, gcc 12 leaves their loops scalar and they are no faster than the library).
ICOUNT_OPS := floor slice_axis index_axis transpose subview reshape index c_slice_axis c_index_axis c_transpose \
  c_subview c_reshape c_index reshape_noncontig subview_flat

$(BUILD)/icount: benches/icount.c benches/reference.c benches/reference.h include/memviewslice.h lib
	@mkdir -p $(BUILD)
	$(CC) -std=c11 $(STRICT) -O3 -Iinclude -c benches/reference.c -o $(BUILD)/reference.o
	$(CC) -std=c11 $(STRICT) -O2 -Iinclude benches/icount.c $(BUILD)/reference.o -o $@ $(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)

icount: $(BUILD)/icount
	@for op in $(ICOUNT_OPS); do \
	  a=$$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $(BUILD)/icount $$op 10000 2>&1 | sed -n 's/.*Collected : //p'); \
	  b=$$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $(BUILD)/icount $$op 20000 2>&1 | sed -n 's/.*Collected : //p'); \
	  echo "$$op: $$(( (b - a) / 10000 )) instructions per call"; done

besttime: $(BUILD)/icount
	$(BUILD)/icount time

# The library's unit tests (the view arithmetic, the lock-free pool bookkeeping with threads,
# the buffer FFI) under Miri (needs a nightly toolchain with the miri and rust-src components).
miri:
	$(CARGO) +nightly miri test --lib

clean:
	$(CARGO) clean
	rm -rf $(BUILD) $(VENV)

# The README's C and Cython examples, compiled as written and run; their output must match the
# README's.
readme-example: lib $(VPY)
	@mkdir -p $(BUILD)
	@awk '/^```c$$/{f=1;next} /^```$$/{if(f){exit}} f' README.md > $(BUILD)/readme_example.c
	$(CC) -std=c11 $(STRICT) -Iinclude $(BUILD)/readme_example.c -o $(BUILD)/readme_example $(LIBDIR)/libmemviewslice.a $(STATIC_LIBS)
	@awk '/It prints:$$/{p=1;next} p&&/^```$$/{if(n++)exit;next} p&&n' README.md > $(BUILD)/readme_expected.txt
	$(BUILD)/readme_example | diff -u $(BUILD)/readme_expected.txt -
	@mkdir -p $(BUILD)/readme
	@awk '/^```cython$$/{f=1;next} /^```$$/{if(f){exit}} f' README.md > $(BUILD)/readme/grid.pyx
	@awk '/^```python$$/{f=1;next} /^```$$/{if(f){exit}} f' README.md > $(BUILD)/readme/run.py
	@awk '/^prints:$$/{p=1;next} p&&/^```$$/{if(n++)exit;next} p&&n' README.md > $(BUILD)/readme/expected.txt
	cd $(BUILD)/readme && ../../$(VPY) -m cython -3 -I ../../include grid.pyx && \
	  $(CC) -O2 -shared -fPIC $$(../../$(VPY) -c "import sysconfig; print('-I' + sysconfig.get_paths()['include'])") \
	    -I../../include grid.c -o grid$$(../../$(VPY) -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))") \
	    ../../$(LIBDIR)/libmemviewslice.a $(STATIC_LIBS) && \
	  ../../$(VPY) run.py | diff -u expected.txt -

# --- Cython tests -------------------------------------------------------------------------
CYOPS := $(BUILD)/cython_ops
CY_CODES := i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 c64 c128

# Every typed helper of every dtype against NumPy: one wrapper module per dtype (generated by
# gen_ops.py; built at -O0 since only their semantics matter, two at a time).
cython-ops: lib $(VPY)
	@mkdir -p $(CYOPS)
	@echo "building $(words $(CY_CODES)) wrapper modules (ops_<dtype>) ..."
	@echo $(CY_CODES) | tr ' ' '\n' | xargs -P 2 -I{} sh -c \
	  '$(VPY) tests/cython/gen_ops.py {} $(CYOPS)/ops_{}.pyx && MVS_OPT=-O0 $(CYBUILD) $(CYOPS)/ops_{}.pyx --out $(CYOPS) >$(CYOPS)/ops_{}.log 2>&1 || { cat $(CYOPS)/ops_{}.log; exit 255; }'
	PYTHONPATH=$(CYOPS) $(VPY) tests/cython/test_ops.py $(CY_CODES)

# The bridge takes no GIL on success, balances Cython's acquisition counts and NumPy's reference
# counts over 1,000,000 views, works under prange, and raises the right errors without leaking:
# gil_test.pyx built in 4 variants (C and C++; boundscheck and initializedcheck both on, both
# off; cpp_off with the helpers' C++11 lambda form instead of GNU statement expressions), each
# linked with --wrap=PyGILState_Ensure (counted) and OpenMP, two at a time.
CYGIL := $(BUILD)/cython_gil
GIL_VARIANTS := c_on c_off cpp_on cpp_off

cython-gil: lib $(VPY)
	@mkdir -p $(CYGIL)
	@echo "building $(words $(GIL_VARIANTS)) variants of gil_test ..."
	@echo $(GIL_VARIANTS) | tr ' ' '\n' | xargs -P 2 -I{} sh -c \
	  'case {} in cpp_*) lang=--cplus;; *) lang=;; esac; case {} in *_on) d=True;; *) d=False;; esac; \
	   case {} in cpp_off) lang="$$lang -D MVS_PYX_NO_STATEMENT_EXPRESSIONS";; esac; \
	   $(CYBUILD) tests/cython/gil_test.pyx --out $(CYGIL) --name gil_test_{} --wrap-gil --openmp $$lang \
	     -X boundscheck=$$d -X initializedcheck=$$d >$(CYGIL)/gil_test_{}.log 2>&1 || { cat $(CYGIL)/gil_test_{}.log; exit 255; }'
	PYTHONPATH=$(CYGIL) $(VPY) tests/cython/test_gil.py $(addprefix gil_test_,$(GIL_VARIANTS))

# Ownership through the Cython layer: C memory handed to NumPy is freed exactly once over
# 100,000 hand-offs; read-only exports; the pool under prange.
CYOWN := $(BUILD)/cython_own

cython-own: lib $(VPY)
	@mkdir -p $(CYOWN)
	$(CYBUILD) tests/cython/own_test.pyx --out $(CYOWN) --openmp >$(CYOWN)/build.log 2>&1 || { cat $(CYOWN)/build.log; exit 1; }
	PYTHONPATH=$(CYOWN) $(VPY) tests/cython/test_own.py

cython-test: cython-ops cython-gil cython-own

