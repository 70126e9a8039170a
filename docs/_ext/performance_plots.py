"""The performance page's figures, drawn from the JSON files of ``benchmarks/results/``.

One figure per question, as small multiples (a panel per device, source device or
transform); every device keeps its colour in every figure (``COLOURS``: one hue per
backend, darker on a GPU, a marker per device index); legends sit outside the panels; times
are in µs or ns. Each figure comes with an include file, ``<name>.md``: the image and its
caption (the machine it was measured on, and what a value below zero or below one means).
No benchmark runs while the site is built.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"

#: Backend -> (colour on the CPU, colour on a GPU).
COLOURS = {
    "numpy": ("#1f77b4", "#1f77b4"),
    "torch": ("#ee4c2c", "#9c1c0c"),
    "jax": ("#9467bd", "#5b2c91"),
    "cupy": ("#76b900", "#4a7500"),
    "dask": ("#8c564b", "#8c564b"),
    "array_api_strict": ("#7f7f7f", "#7f7f7f"),
}
#: The layers of the overhead benchmark, each with its colour.
LAYERS = {
    "arraymux fn": "#1b9e77",
    "arraymux op": "#66c2a5",
    "compat (cached)": "#7570b3",
    "autoray.do": "#e6ab02",
    "eagerpy": "#a6761d",
}


def device_style(device: str) -> dict[str, Any]:
    """The colour and marker of ``device`` (``"torch:cuda:1"``) in every figure."""
    backend, _, place = device.partition(":")
    gpu = bool(place) and not place.startswith("cpu") and backend not in ("dask", "numpy")
    if backend == "array_api_strict":
        gpu = False
    colour = COLOURS.get(backend, ("#333333", "#000000"))[1 if gpu else 0]
    index = place.rsplit(":", 1)[-1] if place else "0"
    marker = "s" if index == "1" else "o"
    return {"color": colour, "marker": marker}


def _short(device: str) -> str:
    return {"array_api_strict:CPU_DEVICE": "array_api_strict", "numpy:cpu": "numpy"}.get(
        device, device
    )


def _machine(meta: dict[str, Any]) -> str:
    m = meta.get("machine", {})
    gpu = f", {m['gpu']}" if m.get("gpu") else ""
    versions = m.get("versions", {})
    libs = ", ".join(f"{k} {v.split('+')[0]}" for k, v in versions.items() if k != "arraymux")
    return f"{m.get('cpus', '?')} CPU cores{gpu}, Python {m.get('python', '?')}; {libs}"


#: The figures are drawn for the page's text column (about 750 px at 100 %): 7.2 inches at
#: 110 dpi, with 9-point text, so that nothing is scaled down to unreadable sizes.
WIDTH = 7.2
DPI = 110
FONT = {"font.size": 9, "axes.titlesize": 9.5, "axes.labelsize": 9, "legend.fontsize": 8.5}


def _grid(n: int, per_row: int = 2, height: float = 2.5) -> tuple[Any, list[Any]]:
    import matplotlib.pyplot as plt

    plt.rcParams.update(FONT)
    cols = min(n, per_row)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(WIDTH, height * rows + 0.4), squeeze=False)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def _legend_below(fig: Any, handles: list[Any], labels: list[str], title: str) -> None:
    """The legend under the panels, outside every one of them."""
    fig.tight_layout()
    fig.legend(
        handles,
        labels,
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        ncol=min(len(labels), 4),
        frameon=False,
        title=title,
    )


def _save(fig: Any, png: Path) -> None:
    import matplotlib.pyplot as plt

    fig.savefig(png, dpi=DPI, bbox_inches="tight")
    plt.close(fig)


def overhead(data: dict[str, Any], png: Path) -> str:
    """What each layer adds to a call, per device: small operands, where the cost shows."""

    rows = data["rows"]
    devices = list(dict.fromkeys(r["device"] for r in rows))
    layers = [k for k in LAYERS if any(k in r for r in rows)]
    fig, axes = _grid(len(devices), per_row=1, height=2.2)
    negatives: list[str] = []
    for ax, device in zip(axes, devices):
        mine = [r for r in rows if r["device"] == device and r["size"] <= 1000]
        labels = [f"{r['op']}\n{r['size']}" for r in mine]
        width = 0.8 / len(layers)
        for i, k in enumerate(layers):
            xs, ys = [], []
            for j, r in enumerate(mine):
                if r.get(k) is None:
                    continue
                xs.append(j + (i - (len(layers) - 1) / 2) * width)
                ys.append((r[k] - r["native"]) * 1e9)
                if ys[-1] < 0 and k.startswith("arraymux"):
                    negatives.append(f"{k} {r['op']} {r['size']} on {device}")
            bars = ax.bar(xs, ys, width, color=LAYERS[k], label=k)
            for bar, y in zip(bars, ys):
                if y < 0:
                    bar.set_hatch("///")
                    bar.set_edgecolor("white")
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xticks(range(len(mine)), labels, fontsize=8)
        ax.set_title(_short(device))
        ax.set_yscale("symlog", linthresh=100)
    for ax in axes:
        ax.set_ylabel("added (ns)")
    axes[-1].set_xlabel("function, elements")
    handles, names = axes[0].get_legend_handles_labels()
    _legend_below(fig, handles, names, "layer")
    _save(fig, png)
    why = []
    if any("sum" in n and "numpy" in n for n in negatives):
        why.append(
            "on NumPy, `sum` calls `np.add.reduce` directly, skipping the Python-level "
            "dispatch of `np.sum` (about 0.7 µs)"
        )
    if any("sum" not in n or "numpy" not in n for n in negatives):
        why.append(
            "elsewhere a bar below zero is the run-to-run spread of the native call itself "
            "(a 256x256 `matmul`, a JAX dispatch of about 5 µs), larger than the difference"
        )
    return (
        "Time each layer adds to a call of the backend's own function, small operands "
        "(float32; ns, a log scale beyond ±100 ns; lower is better): arraymux's function and "
        "operator forms beside array-api-compat with a cached namespace, autoray and EagerPy. "
        + (
            "Hatched bars are below zero, faster than the native call: " + "; ".join(why) + ". "
            if why
            else ""
        )
        + f"Measured on {_machine(data)}."
    )


def _pairs_by_source(rows: list[dict[str, Any]]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """The rows of each pair of devices, by size, under their source and target (each in the
    order of its first row)."""
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for r in rows:
        out.setdefault(r["source"], {}).setdefault(r["target"], []).append(r)
    for targets in out.values():
        for mine in targets.values():
            mine.sort(key=lambda r: r["bytes"])
    return out


def _device_handles(devices: Iterable[str]) -> list[Any]:
    """Legend handles, one per device, in its colour and marker."""
    from matplotlib.lines import Line2D

    return [
        Line2D([], [], color=device_style(d)["color"], marker=device_style(d)["marker"])
        for d in devices
    ]


def transfer_time(data: dict[str, Any], png: Path) -> str:
    """What a move costs, per pair of devices and size: a panel per source device."""
    from matplotlib.lines import Line2D

    rows = data["rows"]
    by_source = _pairs_by_source(rows)
    fig, axes = _grid(len(by_source))
    targets_seen: dict[str, None] = {}
    for ax, (src, targets) in zip(axes, by_source.items()):
        for dst, mine in targets.items():
            style = device_style(dst)
            zero = mine[-1].get("zero_copy") == "yes"
            ax.plot(
                [r["bytes"] for r in mine],
                [r["to_device_s"] * 1e6 for r in mine],
                "-" if zero else "--",
                marker=style["marker"],
                color=style["color"],
                markersize=4,
            )
            targets_seen[dst] = None
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"from {_short(src)}")
        ax.set_xlabel("bytes moved")
    for ax in axes[::2]:
        ax.set_ylabel("to_device time (µs)")
    handles = _device_handles(targets_seen)
    handles += [
        Line2D([], [], color="black", linestyle="-"),
        Line2D([], [], color="black", linestyle="--"),
    ]
    names = [f"to {_short(d)}" for d in targets_seen] + ["zero-copy", "copied"]
    _legend_below(fig, handles, names, "target")
    _save(fig, png)
    return (
        "Time of `to_device` per pair of devices and size (µs, lower is better), a panel per "
        "source device; solid lines share memory (zero-copy: the time does not grow with the "
        "size), dashed lines copy. Measured on " + _machine(data) + "."
    )


def transfer_speedup(data: dict[str, Any], png: Path) -> str:
    """How a move compares with the reference route: a panel per source device."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    rows = data["rows"]
    between = [r for r in rows if "torch_to_s" in r]
    rows = between or rows
    base = "torch_to_s" if between else "naive_s"
    by_source = _pairs_by_source(rows)
    fig, axes = _grid(len(by_source))
    targets_seen: dict[str, None] = {}
    slower: list[str] = []
    for ax, (src, targets) in zip(axes, by_source.items()):
        for dst, mine in targets.items():
            style = device_style(dst)
            ratios = [r[base] / r["to_device_s"] for r in mine]
            slower += [
                f"{_short(src)} → {_short(dst)} at {_bytes(r['bytes'])}"
                for r, v in zip(mine, ratios)
                if v < 0.9
            ]
            ax.plot(
                [r["bytes"] for r in mine],
                ratios,
                marker=style["marker"],
                color=style["color"],
                markersize=4,
            )
            targets_seen[dst] = None
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        plain = FuncFormatter(lambda v, _: f"{v:g}")
        lo, hi = ax.get_ylim()
        ax.yaxis.set_major_formatter(plain)
        # Minor ticks labelled within a decade or two only (beyond, the labels would collide).
        ax.yaxis.set_minor_formatter(plain if hi / lo < 20 else NullFormatter())
        ax.set_title(f"from {_short(src)}")
        ax.set_xlabel("bytes moved")
    reference = "torch's Tensor.to" if between else "the naive route"
    for ax in axes[::2]:
        ax.set_ylabel(f"{reference} time / to_device")
    handles = _device_handles(targets_seen)
    _legend_below(fig, handles, [f"to {_short(d)}" for d in targets_seen], "target")
    _save(fig, png)
    if between:
        largest = max(r["bytes"] for r in rows)
        smallest = min(r["bytes"] for r in rows)

        def share(jax: bool) -> str:
            v = [
                r[base] / r["to_device_s"]
                for r in rows
                if r["bytes"] == largest and ("jax" in r["source"] + r["target"]) == jax
            ]
            return f"{min(v):.0%}-{max(v):.0%}" if v else "-"

        small = [r["to_device_s"] * 1e6 for r in rows if r["bytes"] == smallest]
        torch_small = [r[base] * 1e6 for r in rows if r["bytes"] == smallest]
        what = (
            "against torch's own `Tensor.to` between the same two GPUs (1: as fast). Below 1 is "
            "the share of torch's speed reached: at small sizes a move's fixed cost decides "
            f"({min(small):.0f}-{max(small):.0f} µs a move of {_bytes(smallest)}, torch's own "
            f"{min(torch_small):.0f}-{max(torch_small):.0f} µs; slowest into JAX, whose DLPack "
            f"import adds to the copy); at {_bytes(largest)} moves among torch and CuPy reach "
            f"{share(False)} and moves from or into JAX {share(True)}"
        )
    else:
        what = f"against {data.get('naive', 'the naive route')} (above 1: faster). " + (
            f"Below 0.9 ({', '.join(slower)}): pairs where both routes copy (no shared "
            "memory; from JAX arraymux copies into memory the target may write, and Dask "
            "computes its graph either way) or both share it (two calls of a few µs), so "
            "the ratio is the spread between two runs of the same work"
            if slower
            else "Every pair is at least as fast as the naive route"
        )
    return (
        f"Speed of `to_device` {what}; a panel per source device (log scales). "
        f"Measured on {_machine(data)}."
    )


def _bytes(n: int) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:g} {unit}"
    return f"{n} B"


def transforms(data: dict[str, Any], png: Path) -> str:
    """What arraymux adds to a transform, per transform: a panel per transform."""
    rows = data["rows"]
    params = data.get("parameters", {})
    order = {"10": 0, "1k": 1, "100k": 2, "1M": 3}
    kinds = list(dict.fromkeys(r["transform"] for r in rows))
    fig, axes = _grid(len(kinds))
    seen: dict[str, None] = {}
    for ax, kind in zip(axes, kinds):
        for arrays in dict.fromkeys(r["arrays"] for r in rows if r["transform"] == kind):
            mine = sorted(
                (r for r in rows if (r["arrays"], r["transform"]) == (arrays, kind)),
                key=lambda r: order.get(r["size"], 9),
            )
            xs = [params.get(r["size"], order.get(r["size"], 0)) for r in mine]
            style = device_style(arrays)
            ax.plot(
                xs,
                [
                    r["ratio_quartiles"][1]
                    if r.get("ratio_quartiles")
                    else r["arraymux_s"] / r["native_s"]
                    for r in mine
                ],
                marker=style["marker"],
                color=style["color"],
                markersize=4,
            )
            q = [r.get("ratio_quartiles") for r in mine]
            if all(q):
                ax.fill_between(
                    xs, [v[0] for v in q], [v[2] for v in q], color=style["color"], alpha=0.15
                )
            seen[arrays] = None
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.axhline(1.05, color="grey", linewidth=0.8, linestyle=":")
        ax.set_xscale("log")
        ax.set_title(kind)
        ax.set_xlabel("parameters")
    for ax in axes[::2]:
        ax.set_ylabel("time, arraymux / engine")
    _legend_below(fig, _device_handles(seen), [_short(d) for d in seen], "arrays on")
    _save(fig, png)
    steady = sorted(
        {
            f"{_short(r['arrays'])} {r['transform']}"
            for r in rows
            if r.get("ratio_quartiles") and r["ratio_quartiles"][2] < 1.0
        }
    )
    below = (
        "A point below 1.0 whose shaded band reaches 1.0 is the spread between rounds. "
        if not steady
        else "A point below 1.0 whose shaded band reaches 1.0 is the spread between rounds; "
        f"below 1.0 in every round ({', '.join(steady)}): arraymux's call took less time than "
        "the engine's own, which this benchmark does not explain (the same transforms measure "
        "1.0 on the other machine's record). "
    )
    return (
        "Transforms of a two-layer network: arraymux's time over the engine's own "
        "(torch.func, torch.compile, JAX) on the same arrays, a panel per transform (1.0: the "
        "same; dotted: 5 % more; the median ratio over alternating rounds, shaded between its "
        "quartiles). " + below + f"Measured on {_machine(data)}."
    )


def _include(out: Path, png: Path, alt: str, caption: str) -> None:
    text = f"```{{figure}} /generated/performance/{png.name}\n:alt: {alt}\n:class: arraymux-figure\n\n{caption}\n```\n"
    md = out / f"{png.stem}.md"
    if not md.exists() or md.read_text() != text:
        md.write_text(text)


def performance(out: Path) -> None:
    """Draw every figure of ``benchmarks/results/`` into ``out`` with its include file."""
    import matplotlib

    matplotlib.use("Agg")
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(RESULTS.glob("*.json")):
        data = json.loads(path.read_text())
        kind = data.get("benchmark")
        if kind == "overhead":
            png = out / f"{path.stem}.png"
            _include(out, png, "Time added per call", overhead(data, png))
        elif kind == "transfer":
            png = out / f"{path.stem}-time.png"
            _include(out, png, "Time of to_device", transfer_time(data, png))
            png = out / f"{path.stem}-speedup.png"
            _include(out, png, "Speed of to_device", transfer_speedup(data, png))
        elif kind == "transforms":
            png = out / f"{path.stem}.png"
            _include(out, png, "Transform ratios", transforms(data, png))
