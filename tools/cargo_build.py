#!/usr/bin/env python3
"""Builds the static library for the Python package (meson.build runs it): cargo's release
build, in $CARGO_TARGET_DIR when it is set (the Makefile shares its own build that way), else
in TARGET_DIR; then the archive copied to OUTPUT without debug info (the release profile's line
tables and those of Rust's standard library, which cargo leaves in static libraries).

    python tools/cargo_build.py CARGO STRIP SOURCE_ROOT TARGET_DIR OUTPUT
"""

import os
import shutil
import subprocess
import sys


def main():
    cargo, strip, root, target_dir, output = sys.argv[1:]
    target_dir = os.environ.get("CARGO_TARGET_DIR") or target_dir
    subprocess.run([cargo, "build", "--release", "--lib", "--manifest-path", f"{root}/Cargo.toml",
                    "--target-dir", target_dir], check=True)
    shutil.copyfile(f"{target_dir}/release/libmemviewslice.a", output)
    subprocess.run([strip, "--strip-debug", output], check=True)


if __name__ == "__main__":
    main()
