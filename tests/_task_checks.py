"""Three asyncio tasks that interleave inside and outside two context blocks.

Used by the tests of context settings that must stay in their own asyncio task (the default
dtypes' blocks in ``test_default_dtypes.py``, narrowing's in ``test_narrowing.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractContextManager


def interleave(
    block_a: Callable[[], AbstractContextManager[object]],
    block_b: Callable[[], AbstractContextManager[object]],
    look: Callable[[str], None],
) -> None:
    """Run tasks ``a`` (in ``block_a()``), ``b`` (in ``block_b()``) and ``outside`` (in no
    block): ``a`` enters its block first and leaves it first, ``b`` enters its own while
    ``a``'s is open; each task calls ``look`` with its name while both blocks are open."""

    async def main() -> None:
        all_in = asyncio.Barrier(3)  # both blocks open, and a task outside them
        all_read = asyncio.Barrier(3)
        a_entered, a_left = asyncio.Event(), asyncio.Event()

        async def a() -> None:
            with block_a():
                a_entered.set()
                await all_in.wait()
                look("a")
                await all_read.wait()
            a_left.set()

        async def b() -> None:
            await a_entered.wait()
            with block_b():
                await all_in.wait()
                look("b")
                await all_read.wait()
                await a_left.wait()

        async def outside() -> None:
            await all_in.wait()
            look("outside")
            await all_read.wait()

        await asyncio.gather(a(), b(), outside())

    asyncio.run(main())
