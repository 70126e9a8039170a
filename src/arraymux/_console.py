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

__all__ = ["console", "emit", "table"]

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
) -> Table:
    """A table of ``rows`` under ``header``: with a box and a bold header where ``styled``
    (the columns named in ``wrap`` wrap their text to fit the terminal, the others keep theirs
    on one line), else plain text, one line per row, columns under a line of dashes. Strings
    are shown as they are (no markup: ``pip install "arraymux[cupy]"`` keeps its brackets); a
    ``Text`` keeps its style."""
    if styled:
        t = Table(box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False)
    else:
        t = Table(box=box.ASCII2, show_edge=False, pad_edge=False)
    for name in header:
        flexible = styled and name in wrap
        t.add_column(name, no_wrap=not flexible, overflow="fold", min_width=len(name))
    for row in rows:
        t.add_row(*(Text(c) if isinstance(c, str) else c for c in row))
    return t


def emit(out: Console, *renderables: object) -> None:
    """Print ``renderables`` on ``out``; on plain-text output without the spaces that pad the
    last column of a table."""
    if out.is_terminal:
        out.print(*renderables)
        return
    with out.capture() as captured:
        out.print(*renderables)
    text = "\n".join(line.rstrip() for line in captured.get().splitlines())
    out.file.write(text + "\n")
    out.file.flush()
