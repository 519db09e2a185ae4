"""Draws benches/results/bandwidth.json (benches/bandwidth.py) into docs/copy_bandwidth.png, the
picture the README shows: GB/s against the destination's size, log-log, mvs_copy's three
sources in solid lines, NumPy's in dashed lines of the same colours, memcpy in black. The PNG's
`Source` text is the SHA-256 of the figures drawn, which tools/readme_figures.py --check compares
with the record's. Needs matplotlib (`make bench` installs it into the venv). Run:
`make bench-bandwidth`."""

import hashlib
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "copy_bandwidth.png"
SOURCES = {"contiguous": "tab:blue", "strided": "tab:orange", "transposed": "tab:green"}
TICKS = {1 << 12: "4 KiB", 1 << 16: "64 KiB", 1 << 20: "1 MiB", 1 << 24: "16 MiB", 1 << 28: "256 MiB"}


def main():
    record = json.loads((ROOT / "benches" / "results" / "bandwidth.json").read_text())
    series = {}
    for key, gbs in record["figures"].items():
        if key == "rounds":
            continue
        name, nbytes = key.rsplit("/", 1)
        series.setdefault(name, []).append((int(nbytes), gbs))
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)

    def line(name, label, **style):
        x, y = zip(*sorted(series[name]))
        ax.plot(x, y, marker=".", label=label, **style)

    line("memcpy", "memcpy", color="black", linestyle=":")
    for source, colour in SOURCES.items():
        line(f"mvs_{source}", f"mvs_copy, {source}", color=colour)
        line(f"numpy_{source}", f"np.copyto, {source}", color=colour, linestyle="--")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(ticker.LogLocator(subs=(1, 2, 5)))
    ax.yaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
    ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xticks(list(TICKS), list(TICKS.values()))
    ax.set_xlabel("destination size (float64)")
    ax.set_ylabel("GB/s of destination")
    m = record["machine"]
    ax.set_title(f"Copies into a C-contiguous array, one thread ({m['cores']} cores, {m['cpu']}, load {m['load']:g}, "
                 f"{m['date']})", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    digest = hashlib.sha256(json.dumps(record["figures"], sort_keys=True).encode()).hexdigest()
    fig.savefig(OUT, metadata={"Software": None, "Source": digest})
    print(f"(drawn into {OUT.relative_to(ROOT)})")


if __name__ == "__main__":
    main()
