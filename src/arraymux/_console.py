"""Terminal output of the command line, drawn with ``rich``: tables that fit the terminal's
width, a progress bar, and plain text (no colours, no box, one line per row) where the output
is not a terminal, so that logs and pipes stay easy to read and to grep."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["console", "emit", "fits", "overhead", "table"]

#: The width of plain-text output (a pipe, a file, a CI log): wide enough that a row of the
#: tables stays on one line (trailing spaces are cut).
PLAIN_WIDTH = 1000


def console(stream: TextIO, terminal: bool | None = None, width: int | None = None) -> Console:
    """A console writing to ``stream``: styled and as wide as the terminal where ``stream`` is
    one (``terminal`` forces either), else plain text ``PLAIN_WIDTH`` wide."""
    is_tty = stream.isatty() if terminal is None else terminal
    if is_tty:
        return Console(file=stream, force_terminal=True, width=width, highlight=False)
    return Console(
        file=stream,
        force_terminal=False,
        no_color=True,
        width=width or PLAIN_WIDTH,
        highlight=False,
        soft_wrap=False,
    )


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[str | Text]],
    styled: bool,
    wrap: Sequence[str] = (),
    widths: Sequence[int] | None = None,
) -> Table:
    """A table of ``rows`` under ``header``: with a bold header and a rule under it where
    ``styled``, else plain text, one line per row, columns under a line of dashes. Strings are
    shown as they are (no markup: ``pip install "arraymux[cupy]"`` keeps its brackets); a
    ``Text`` keeps its style.

    On a terminal too narrow for the table, the columns named in ``wrap`` wrap their text at
    spaces (a word is never split while the table fits the width of its longest words); the
    others keep each cell on one line and end a cell that does not fit with an ellipsis
    (``linalg.in…``), never cut it silently. ``widths`` fixes the width of each column."""
    if styled:
        t = Table(box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False, show_edge=False)
    else:
        t = Table(box=box.ASCII2, show_edge=False, pad_edge=False)
    for i, name in enumerate(header):
        width = None if widths is None else widths[i]
        if styled and name in wrap:
            t.add_column(name, overflow="fold", min_width=len(name), width=width)
        else:
            t.add_column(name, no_wrap=True, overflow="ellipsis", width=width)
    for row in rows:
        t.add_row(*(Text(c) if isinstance(c, str) else c for c in row))
    return t


def overhead(t: Table) -> int:
    """The width of ``t`` beyond its cells' text: their padding and the rules between them."""
    _, right, _, left = t.padding
    width = len(t.columns) * (left + right) - (0 if t.pad_edge else left + right)
    if t.box:
        width += len(t.columns) - 1 + (2 if t.show_edge else 0)
    return width


def fits(out: Console, t: Table) -> bool:
    """Whether ``t`` fits ``out``'s width without cutting a word: each cell of a column that
    wraps needs its longest word, of the others all of its text. (``rich``'s own measure of a
    table is already shrunk to the width it is given.)"""
    return fitted_widths(out, t) is not None


def fitted_widths(out: Console, t: Table) -> list[int] | None:
    """Widths for ``t``'s columns within ``out``'s width that cut no word, or None where none
    do: each column gets what :func:`fits` says it needs, and the space left goes to the
    columns that wrap, the last first, up to their whole text. (Left to itself, ``rich``
    narrows the widest wrapping column first, below its longest word: a device name was cut
    in two.)"""
    from rich.measure import Measurement

    options = out.options.update_width(1_000_000)
    need, most = [], []
    for column in t.columns:
        sizes = [Measurement.get(out, options, c) for c in (column.header, *column.cells)]
        floor = column.min_width or 0
        need.append(max(floor, *((m.maximum if column.no_wrap else m.minimum) for m in sizes)))
        most.append(max(floor, *(m.maximum for m in sizes)))
    spare = out.width - overhead(t) - sum(need)
    if spare < 0:
        return None
    widths = list(need)
    for i in reversed(range(len(widths))):
        grow = min(spare, most[i] - widths[i])
        widths[i] += grow
        spare -= grow
    return widths


def emit(out: Console, *renderables: object) -> None:
    """Print ``renderables`` on ``out`` (strings as they are, without markup); on plain-text
    output without the spaces that pad the last column of a table."""
    shown = [Text(r) if isinstance(r, str) else r for r in renderables]
    if out.is_terminal:
        out.print(*shown)
        return
    with out.capture() as captured:
        out.print(*shown)
    text = "\n".join(line.rstrip() for line in captured.get().splitlines())
    out.file.write(text + "\n")
    out.file.flush()
