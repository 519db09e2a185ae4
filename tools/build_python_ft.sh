#!/bin/sh
# build_python_ft.sh PREFIX WORKDIR
#
# Builds a free-threaded CPython 3.13 ("3.13t", PEP 703, ./configure --disable-gil) and installs
# it into PREFIX, using WORKDIR for the download and the build tree; the last line printed on
# stdout is the interpreter, PREFIX/bin/python3.13t. For `make test` on Debian 12 machines, where
# no free-threaded CPython package or prebuilt download is available.
#
# Source: the pristine upstream tarball (python3.13_<version>.orig.tar.xz) of Debian 13
# "trixie"'s source package python3.13, fetched by apt-get with a private configuration under
# WORKDIR/apt (no change to the system's apt state, works as root or as a normal user). apt checks
# the InRelease signature against Debian's archive keyring and the tarball's SHA256 against the
# signed Sources index. Only the orig tarball is used, never the Debian-patched tree: Debian's
# patches change site.py so that a venv's lib/python3.13t/site-packages is left off sys.path on
# the free-threaded build, which breaks `python -m venv` + pip.
#
# Needs: apt-get, a C compiler and make, xz, and the headers of the modules pip and the tests
# need: libssl-dev (ssl, hashlib), zlib1g-dev, libffi-dev (ctypes), liblzma-dev, libbz2-dev. The
# build stops with a message naming them if any of those modules did not build.
#
# Build choices (cheapest build that still has what the tests need):
#   - no PGO (--disable-optimizations) and no LTO (--with-lto=no): both are the defaults, stated
#     explicitly; PGO runs a training workload and compiles everything twice.
#   - --disable-test-modules: neither Lib/test nor the _test* C modules are built or installed
#     (also makes `make install`'s byte-compilation much shorter).
#   - --without-doc-strings, --without-static-libpython (libpython3.13t.a is not installed; nothing
#     here embeds Python), --with-ensurepip=install (PREFIX gets pip; venvs get theirs from
#     ensurepip's bundled wheel either way).
#   - stdlib extension modules the tests and pip do not use are not built (py_cv_module_<name>=n/a,
#     see TRIM below); set BUILD_PYTHON_FT_TRIM=0 to build them all. Measured on 2 cores: make
#     takes ~107 s CPU / 55 s wall trimmed, ~122 s CPU / 62-99 s wall untrimmed.
#   - compiled with OPT=-O2 (configure adds -DNDEBUG; its default is "-DNDEBUG -g -O3 -Wall"): no
#     debug info; on 2 cores make takes ~105 s CPU instead of ~155 s, and PREFIX is 76 MB, not 114.
#     CFLAGS, CPPFLAGS, LDFLAGS and CXXFLAGS of the caller are dropped, so that a project's strict
#     or sanitizer flags do not leak into the interpreter; CC is honoured.
#   - parallel make. Run from a make recipe whose jobserver reaches this script (GNU make 4.4's
#     fifo, or 4.3's pipe fds, which 4.3 — Debian 12's — keeps open only in recipe lines marked
#     `+` or using $(MAKE)), the build takes its jobs from that jobserver, sharing the cores with
#     the caller's other jobs. Otherwise (no jobserver, or its fds were closed) it runs
#     make -j$(nproc), or -j$BUILD_PYTHON_FT_JOBS if that is set (which also overrides a
#     jobserver). The rest of the caller's MAKEFLAGS/MFLAGS/MAKELEVEL is dropped: its variable
#     overrides (e.g. `make test PYTHON=...`) and flags like -n or -k must not reach CPython's make.
#
# For a venv of the result: NumPy publishes cp313t wheels only up to 2.4.x, so install it with
# --only-binary=numpy (or numpy<2.5), else pip builds NumPy 2.5+ from source (~4 min on 2 cores).
# Cython has no cp313t wheel either: pip installs its pure-Python wheel (works, compiles slower).
#
# Idempotent: if PREFIX/bin/python3.13t exists and passes the checks below, nothing is done.
set -eu

me=build_python_ft.sh
die() { echo "$me: error: $*" >&2; exit 1; }
say() { echo "$me: $*" >&2; }

[ $# -eq 2 ] || die "usage: $me PREFIX WORKDIR"
mkdir -p "$1" "$2" || die "cannot create $1 or $2"
PREFIX=$(cd "$1" && pwd)
WORKDIR=$(cd "$2" && pwd)
PY=$PREFIX/bin/python3.13t
JOBS=${BUILD_PYTHON_FT_JOBS:-$(nproc 2>/dev/null || echo 2)}
TRIM=${BUILD_PYTHON_FT_TRIM:-1}
CALLER_MAKEFLAGS=${MAKEFLAGS:-}
unset MAKEFLAGS MFLAGS MAKELEVEL CFLAGS CPPFLAGS LDFLAGS CXXFLAGS PYTHON_GIL PYTHONHOME PYTHONPATH \
    PYTHONOPTIMIZE

# Modules pip, NumPy, Cython, meson-python and the tests import (hashlib is checked through _hashlib,
# i.e. OpenSSL, which pip's download verification uses).
NEEDED="ssl _hashlib zlib ctypes bz2 lzma pyexpat _json _struct _socket select"

# The interpreter is free-threaded, runs without the GIL, and has the modules above.
check() {
    "$PY" -c '
import importlib, sys, sysconfig
if sysconfig.get_config_var("Py_GIL_DISABLED") != 1 or sys._is_gil_enabled():
    sys.exit("not a free-threaded build, or the GIL is enabled")
missing = []
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except ImportError as e:
        missing.append("%s (%s)" % (name, e))
if missing:
    sys.exit("missing modules: " + ", ".join(missing))
if sys._is_gil_enabled():
    sys.exit("importing the stdlib modules enabled the GIL")
' $NEEDED
}

if [ -x "$PY" ] && check >/dev/null 2>&1; then
    say "$PY is already built"
    echo "$PY"
    exit 0
fi

# Phase timer: wall seconds and the CPU (user+sys) of the finished child processes, per phase.
# `times` is a special builtin; run directly (not in a pipe or $(...), which are subshells) it
# reports this shell's finished children.
cpu_now() { awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%.1f", s }' "$WORKDIR/.times"; }
phase_start() { PHASE=$1; T0=$(date +%s); times >"$WORKDIR/.times"; C0=$(cpu_now); say "$PHASE ..."; }
phase_end() {
    times >"$WORKDIR/.times"
    say "$PHASE done: wall $(($(date +%s) - T0)) s, cpu $(awk -v a="$C0" -v b="$(cpu_now)" 'BEGIN { printf "%.1f", b - a }') s"
}
# run LOGNAME COMMAND...: runs COMMAND with its output in WORKDIR/LOGNAME.log; on failure shows the
# end of the log and stops.
run() {
    log=$WORKDIR/$1.log
    shift
    if ! "$@" >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        die "'$*' failed; the whole output is in $log"
    fi
}

# --- download ----------------------------------------------------------------------------------
phase_start download
command -v apt-get >/dev/null || die "apt-get is needed to fetch the python3.13 source package"
KEYRING=/usr/share/keyrings/debian-archive-trixie-stable.gpg
[ -r "$KEYRING" ] || KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$KEYRING" ] || die "no Debian archive keyring (install debian-archive-keyring)"
APT=$WORKDIR/apt
DL=$WORKDIR/download
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/sources.list.d" \
    "$APT/preferences.d" "$DL"
: >"$APT/status"
echo "deb-src [signed-by=$KEYRING] http://deb.debian.org/debian trixie main" >"$APT/sources.list"
set -- -q -o Dir::State="$APT" -o Dir::State::Lists="$APT/lists" -o Dir::State::status="$APT/status" \
    -o Dir::Cache="$APT/cache" -o Dir::Etc::SourceList="$APT/sources.list" \
    -o Dir::Etc::SourceParts="$APT/sources.list.d" -o Dir::Etc::PreferencesParts="$APT/preferences.d" \
    -o Dir::Etc::Preferences="$APT/preferences"
# As root, apt downloads as the user _apt, who cannot write into a private WORKDIR; it would fall
# back to root with a notice, so say so up front.
[ "$(id -u)" -ne 0 ] || set -- "$@" -o APT::Sandbox::User=root
run apt-update apt-get "$@" update
rm -f "$DL"/*
(cd "$DL" && apt-get "$@" source --download-only python3.13) >"$WORKDIR/apt-source.log" 2>&1 ||
    { tail -n 20 "$WORKDIR/apt-source.log" >&2; die "apt-get source python3.13 failed"; }
set -- "$DL"/python3.13_*.orig.tar.xz
[ $# -eq 1 ] && [ -f "$1" ] || die "expected one python3.13_*.orig.tar.xz in $DL"
ORIG=$1
find "$DL" -type f ! -name '*.orig.tar.xz' -delete # the Debian tree is never used
VERSION=${ORIG##*/python3.13_}
VERSION=${VERSION%.orig.tar.xz}
case $VERSION in 3.13.[0-9]*) ;; *) die "unexpected upstream version '$VERSION' in $ORIG" ;; esac
phase_end

# --- configure ---------------------------------------------------------------------------------
phase_start "configure (CPython $VERSION)"
SRC=$WORKDIR/Python-$VERSION
rm -rf "$SRC"
tar -xJf "$ORIG" -C "$WORKDIR"
[ -x "$SRC/configure" ] || die "$ORIG did not unpack to $SRC"
# Extension modules not built when TRIM=1: none of pip, NumPy, Cython, meson(-python), ninja,
# pytest(-xdist) or the project's tests import them (decimal falls back to _pydecimal).
set --
if [ "$TRIM" = 1 ]; then
    for m in _tkinter _curses _curses_panel _dbm _gdbm _sqlite3 readline _decimal _uuid \
        _codecs_cn _codecs_hk _codecs_iso2022 _codecs_jp _codecs_kr _codecs_tw _multibytecodec \
        _interpreters _interpchannels _interpqueues; do
        set -- "$@" "py_cv_module_$m=n/a"
    done
fi
cd "$SRC"
run configure ./configure --prefix="$PREFIX" --disable-gil --disable-optimizations --with-lto=no \
    --disable-test-modules --without-doc-strings --without-static-libpython \
    --with-ensurepip=install OPT=-O2 "$@"
phase_end

# --- make --------------------------------------------------------------------------------------
# A usable jobserver of the calling make (see the header), from the MAKEFLAGS saved above.
JS= JW=-j
if [ -z "${BUILD_PYTHON_FT_JOBS:-}" ]; then
    set -f
    for f in $CALLER_MAKEFLAGS; do
        case $f in
        --) break ;; # variable overrides follow
        -j*) JW=$f ;;
        --jobserver-auth=fifo:*) [ -p "${f#*=fifo:}" ] && JS=$f ;;
        --jobserver-auth=*,* | --jobserver-fds=*,*)
            r=${f#*=} && w=${r#*,} && r=${r%,*}
            [ -p "/dev/fd/$r" ] && [ -p "/dev/fd/$w" ] && JS=$f ;;
        esac
    done
    set +f
fi
if [ -n "$JS" ]; then
    phase_start "make (jobs from the caller's jobserver)"
    run make env MAKEFLAGS="$JW $JS" make -s
else
    phase_start "make -j$JOBS"
    run make make -s -j"$JOBS"
fi
phase_end

# --- install -----------------------------------------------------------------------------------
phase_start install
# altinstall: bin/python3.13t (and pip3.13), without the python3 links of `make install`.
run install make -s altinstall
phase_end

[ -x "$PY" ] || die "$PY was not installed"
if ! err=$(check 2>&1); then
    echo "$err" >&2
    die "$PY is not a usable free-threaded interpreter; if modules are missing, install their
headers (apt-get install libssl-dev zlib1g-dev libffi-dev liblzma-dev libbz2-dev) and run again"
fi
# What Debian's patched site.py broke: a venv's site-packages on sys.path.
rm -rf "$WORKDIR/venv-check"
"$PY" -m venv --without-pip "$WORKDIR/venv-check"
"$WORKDIR/venv-check/bin/python" -c '
import sys, sysconfig
sp = sysconfig.get_path("purelib")
sys.exit(0 if sp.startswith(sys.prefix) and sp in sys.path else "%s not on %s" % (sp, sys.path))
' || die "a venv of $PY does not have its site-packages on sys.path"
rm -rf "$WORKDIR/venv-check"
say "built $("$PY" -c 'import sys; print(sys.version.replace(chr(10), " "))')"
echo "$PY"
