"""The built documentation site, checked in a real browser (headless Chromium).

It serves ``docs/_build/html`` on loopback and opens every page: a page that does not load, a
console error, a script error, a failed request, a broken internal link or an image that does
not show fails the test; the site's search must find ``to_device``. The README's test command
builds the site first (``python -m sphinx -W --keep-going -b html docs docs/_build/html``); the
test skips, saying why, where the site is not built or Chromium is missing (``.ci/run``
installs Debian's ``chromium`` package where it can). ``ARRAYMUX_SCREENSHOTS=DIR`` saves a
screenshot of each page there.
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

import pytest

SITE = Path(__file__).resolve().parents[1] / "docs" / "_build" / "html"
CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)

pytestmark = [
    pytest.mark.skipif(
        not (SITE / "index.html").exists(),
        reason="the site is not built: python -m sphinx -W --keep-going -b html docs docs/_build/html",
    ),
    pytest.mark.skipif(
        CHROMIUM is None, reason="no Chromium here (Debian: apt-get install chromium)"
    ),
]
playwright = pytest.importorskip("playwright.sync_api", reason="needs playwright (the docs extra)")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(SITE))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _pages() -> list[str]:
    return sorted(
        str(p.relative_to(SITE))
        for p in SITE.rglob("*.html")
        if not str(p.relative_to(SITE)).startswith(("_static", "_sources", "_images"))
    )


def test_every_page_loads_cleanly(server, browser):
    shots = os.environ.get("ARRAYMUX_SCREENSHOTS")
    problems: list[str] = []
    links: set[str] = set()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    current = {"url": ""}
    page.on(
        "console",
        lambda m: m.type == "error" and problems.append(f"{current['url']}: console: {m.text}"),
    )
    page.on("pageerror", lambda e: problems.append(f"{current['url']}: script error: {e}"))
    page.on(
        "requestfailed",
        lambda r: problems.append(f"{current['url']}: request failed: {r.url}"),
    )
    page.on(
        "response",
        lambda r: r.status >= 400 and problems.append(f"{current['url']}: {r.status} {r.url}"),
    )
    pages = _pages()
    assert len(pages) >= 30, pages
    for rel in pages:
        url = urljoin(server, rel)
        current["url"] = rel
        response = page.goto(url, wait_until="load")
        if response is None or response.status != 200:
            problems.append(f"{rel}: did not load")
            continue
        broken = page.eval_on_selector_all(
            "img", "els => els.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
        )
        problems += [f"{rel}: image does not show: {src}" for src in broken]
        hrefs = page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)")
        links.update(urldefrag(h)[0] for h in hrefs if h.startswith(server))
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(shots) / (rel.replace("/", "__") + ".png")))
    for link in sorted(links):
        path = SITE / urlparse(link).path.lstrip("/")
        if path.is_dir():
            path = path / "index.html"
        if not path.exists():
            problems.append(f"broken internal link: {link}")
    page.close()
    assert not problems, "\n".join(problems)


def test_search_finds_to_device(server, browser):
    page = browser.new_page()
    page.goto(urljoin(server, "search.html?q=to_device"), wait_until="load")
    page.wait_for_selector("#search-results li, ul.search li", timeout=20000)
    results = page.inner_text("#search-results")
    assert "to_device" in results or "Moving data" in results, results[:2000]
    page.close()
