"""``arraymux conformance``: run the conformance properties and print a function x device matrix."""

from __future__ import annotations

import io
import json
import re
import sys
import time
from dataclasses import dataclass
from typing import Any, TextIO

__all__ = ["Result", "print_report", "render", "run_report"]


@dataclass
class Result:
    function: str
    device: str
    status: str  # "pass", "FAIL", "xfail", "xpass", "n/a"
    detail: str = ""

    @property
    def unexpected(self) -> bool:
        return self.status == "FAIL"


def _first_counterexample(e: BaseException) -> str:
    lines = [str(e).splitlines()[0] if str(e) else type(e).__name__]
    if not isinstance(e, AssertionError):
        lines[0] = f"{type(e).__name__}: {lines[0]}"
    notes = [n for n in getattr(e, "__notes__", []) if n.startswith("Draw ")]
    lines += notes
    return "; ".join(lines)


class _Progress:
    """Progress of a conformance run on ``stream``: a ``rich`` bar where it is a terminal, one
    line per check otherwise (a log keeps every result)."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.done = 0
        self.stream = stream
        self.start = time.monotonic()
        self.bar: Any = None
        if stream.isatty():
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            from .._console import console

            self.bar = Progress(
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("{task.description}"),
                console=console(stream),
                transient=True,
            )
            self.task = self.bar.add_task("", total=total)
            self.bar.start()

    def step(self, r: Result) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=f"{r.function} on {r.device}")
        else:
            self.stream.write(f"{self.done}/{self.total} {r.function} on {r.device}: {r.status}\n")
            self.stream.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
        elapsed = time.monotonic() - self.start
        self.stream.write(f"ran {self.done} checks in {elapsed:.1f} s\n")
        self.stream.flush()


def run_report(
    devices: list[str], functions: list[str], max_examples: int, stream: TextIO | None = None
) -> list[Result]:
    """Run every function's property on every device; one :class:`Result` per pair."""
    from ._conformance import Unsupported, run_property
    from ._deviations import known_deviation

    stream = sys.stderr if stream is None else stream
    progress = _Progress(len(devices) * len(functions), stream)
    results = []
    for fname in functions:
        for dev in devices:
            known = known_deviation(fname, dev)
            try:
                run_property(fname, dev, max_examples=max_examples)
            except Unsupported as e:
                r = Result(fname, dev, "n/a", str(e))
            except Exception as e:
                if known is not None:
                    r = Result(fname, dev, "xfail", known)
                else:
                    r = Result(fname, dev, "FAIL", _first_counterexample(e))
            else:
                r = Result(fname, dev, "xpass" if known else "pass", known or "")
            results.append(r)
            progress.step(r)
    progress.close()
    return results


def _matrix(
    results: list[Result],
) -> tuple[list[str], list[str], dict[tuple[str, str], Result], dict[str, int], list[Result]]:
    """The devices and functions in order of appearance, the result of each pair, the count of
    each status, and the results that need a note (FAIL, xfail, xpass)."""
    devices = list(dict.fromkeys(r.device for r in results))
    functions = list(dict.fromkeys(r.function for r in results))
    cell = {(r.function, r.device): r for r in results}
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    notes = [r for r in results if r.status in ("FAIL", "xfail", "xpass")]
    return devices, functions, cell, counts, notes


def render(results: list[Result], fmt: str) -> str:
    """The function x device matrix as a ``table``, ``markdown`` or ``json``."""
    devices, functions, cell, counts, notes = _matrix(results)
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    if fmt == "json":
        payload: dict[str, object] = {
            "devices": devices,
            "results": [r.__dict__ for r in results],
            "summary": counts,
        }
        return json.dumps(payload, indent=2)
    if fmt == "markdown":
        header = ["function", *devices]
        rows = [[f, *(cell[f, d].status for d in devices)] for f in functions]
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        lines.append("")
        lines += [f"- **{r.status}** `{r.function}` on `{r.device}`: {r.detail}" for r in notes]
        lines += ["", f"Summary: {summary}."]
        return "\n".join(lines)
    from .._console import console

    out = io.StringIO()
    print_report(results, console(out, terminal=False))
    return out.getvalue().rstrip("\n")


#: The narrowest the function column of a report gets on a narrow terminal (names longer end
#: with an ellipsis), once the device columns are as narrow as they go.
_FUNCTION_LEAST = 12


def _parts(device: str) -> list[str]:
    """A device's name in the pieces a header may break between: after each colon."""
    return re.findall(r"[^:]*:|[^:]+", device)


def _stacked(device: str, width: int) -> str:
    """A device's name on lines of at most ``width``, broken only after a colon
    (``array_api_strict:`` over ``CPU_DEVICE``); a piece wider than that stays whole, for
    the table to end with an ellipsis."""
    lines = [""]
    for part in _parts(device):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def _narrowed(room: int, natural: list[int], least: list[int], floor: list[int]) -> list[int]:
    """Column widths that fit ``room``: the widest device column gives up a character at a
    time, down to its ``least`` (its longest status, or piece of its name), then the function
    column (the first) down to its ``least``; past that the widest column of all, down to its
    ``floor``, where its header or names end with an ellipsis but no status is cut. What is
    still too wide is left to the table to squeeze."""
    widths = list(natural)
    while sum(widths) > room:
        devices = [i for i in range(1, len(widths)) if widths[i] > least[i]]
        if not devices and widths[0] > least[0]:
            devices = [0]
        if not devices:
            devices = [i for i in range(len(widths)) if widths[i] > floor[i]]
        if not devices:
            break
        widths[max(devices, key=widths.__getitem__)] -= 1
    return widths


def print_report(results: list[Result], out: Any) -> None:
    """The function x device matrix, the notes and the summary, on a ``rich`` console (a table
    that fits a terminal, plain text elsewhere). On a narrow terminal the device names break
    after a colon over two lines or more, then the function names end with an ellipsis."""
    from rich.text import Text

    from .._console import emit, fits, overhead, table

    devices, functions, cell, counts, notes = _matrix(results)
    styles = {"pass": "green", "FAIL": "bold red", "xfail": "yellow", "xpass": "magenta"}
    styled = out.is_terminal

    def shown(status: str) -> Text:
        return Text(status, style=styles.get(status, "") if styled else "")

    rows: list[list[str | Text]] = [
        [f, *(shown(cell[f, d].status) for d in devices)] for f in functions
    ]
    header = ["function", *devices]
    drawn = table(header, rows, styled)
    if styled and not fits(out, drawn):
        statuses = [max(len(cell[f, d].status) for f in functions) for d in devices]
        natural = [max(map(len, ["function", *functions]))]
        natural += [max(len(d), s) for d, s in zip(devices, statuses, strict=True)]
        least = [min(natural[0], _FUNCTION_LEAST)]
        least += [max(*map(len, _parts(d)), s) for d, s in zip(devices, statuses, strict=True)]
        floor = [min(natural[0], 5), *statuses]
        widths = _narrowed(out.width - overhead(drawn), natural, least, floor)
        stacked = ["function", *(_stacked(d, w) for d, w in zip(devices, widths[1:], strict=True))]
        drawn = table(stacked, rows, styled, widths=widths)
    emit(out, drawn)
    if notes:
        out.print()
        for r in notes:
            out.print(Text.assemble(shown(r.status), f" {r.function} on {r.device}: {r.detail}"))
    out.print()
    out.print(Text("summary: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))))
