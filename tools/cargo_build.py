#!/usr/bin/env python3
"""Builds the static library for the Python package (meson.build runs it): cargo's `dist`
profile (release without debug info), then the archive copied to OUTPUT with the debug info of
Rust's standard library, which cargo leaves in static libraries, stripped.

    python tools/cargo_build.py CARGO STRIP SOURCE_ROOT TARGET_DIR OUTPUT
"""

import shutil
import subprocess
import sys


def main():
    cargo, strip, root, target_dir, output = sys.argv[1:]
    subprocess.run([cargo, "build", "--profile", "dist", "--lib", "--manifest-path", f"{root}/Cargo.toml",
                    "--target-dir", target_dir], check=True)
    shutil.copyfile(f"{target_dir}/dist/libmemviewslice.a", output)
    subprocess.run([strip, "--strip-debug", output], check=True)


if __name__ == "__main__":
    main()
