"""The built documentation site, checked in a real browser (headless Chromium).

It serves ``docs/_build/html`` on loopback and opens every page: a page that does not load, a
console error, a script error, a failed request, a broken internal link, an image that does
not show, a figure shown at less than three quarters of its size, output or an error message
wider than its block (sessions and output wrap), or rst role markup left as
text (``:func:`...```, outside code blocks) fails the test; every gallery page must show its
figure, a download link and its run-time table; the site's search must find ``to_device``, a
dtype and a constant as API objects. The README's test command
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


# The text of the page's article outside code blocks, and the rst roles left in it.
_ROLES_AS_TEXT = r"""() => {
    const article = document.querySelector("article") || document.body;
    const copy = article.cloneNode(true);
    copy.querySelectorAll("pre, .highlight, script, style").forEach(e => e.remove());
    // ":func:`x`" left as text, or as ":func:" before code (how Markdown renders it).
    const roles = "func|class|meth|attr|mod|data|exc|obj|doc|ref|term|math|download|const|any";
    const pattern = new RegExp(`:(py:)?(${roles}):\`?[\\w.~]+`, "g");
    const found = copy.textContent.match(pattern) || [];
    return found.slice(0, 5);
}"""


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
    # A request cut short by the next navigation (the favicon, say) is not a failure; a file
    # that is missing answers 404, caught below.
    page.on(
        "requestfailed",
        lambda r: (
            "ERR_ABORTED" not in (r.failure or "")
            and problems.append(f"{current['url']}: request failed: {r.url} ({r.failure})")
        ),
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
        # Lazy images load once scrolled to: bring each into view, then check it.
        page.eval_on_selector_all("img", "els => els.forEach(i => i.loading = 'eager')")
        page.wait_for_load_state("load")
        broken = page.eval_on_selector_all(
            "img", "els => els.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
        )
        problems += [f"{rel}: image does not show: {src}" for src in broken]
        small = page.eval_on_selector_all(
            "img.arraymux-figure",
            "els => els.filter(i => i.naturalWidth > 0 && i.clientWidth < 0.75 * i.naturalWidth)"
            ".map(i => `${i.src} at ${Math.round(100 * i.clientWidth / i.naturalWidth)} %`)",
        )
        problems += [f"{rel}: figure shown too small: {s}" for s in small]
        cut = page.eval_on_selector_all(
            "div.highlight-pycon pre, div.highlight-text pre",
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1)"
            ".map(e => e.textContent.slice(0, 60))",
        )
        problems += [f"{rel}: output cut at the right edge: {c!r}" for c in cut]
        roles = page.evaluate(_ROLES_AS_TEXT)
        problems += [f"{rel}: rst markup shown as text: {r}" for r in roles]
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


def test_every_gallery_page_shows_its_figure_download_and_timings(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    programs = sorted((SITE.parent.parent / "examples").glob("*.py"))
    assert programs
    problems = []
    for program in programs:
        if program.stem.startswith("_"):
            continue
        rel = f"generated/gallery/{program.stem}.html"
        page.goto(urljoin(server, rel), wait_until="load")
        figures = page.eval_on_selector_all(
            "article img",
            "els => els.filter(i => i.complete && i.naturalWidth > 0).map(i => i.src)",
        )
        if not any(src.endswith(f"{program.stem}.png") for src in figures):
            problems.append(f"{rel}: no figure")
        links = page.eval_on_selector_all("article a[href]", "els => els.map(a => a.href)")
        if not any(h.endswith(f"/{program.name}") for h in links):
            problems.append(f"{rel}: no download link")
        else:
            href = next(h for h in links if h.endswith(f"/{program.name}"))
            if page.request.get(href).body() != program.read_bytes():
                problems.append(f"{rel}: the download is not the program")
        text = page.inner_text("article")
        if "cold start" not in text or "warm run, median" not in text:
            problems.append(f"{rel}: no run-time table")
    page.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("query", "page"),
    [
        ("float32", "arraymux.float32.html"),
        ("newaxis", "arraymux.newaxis.html"),
        ("ndim", "arraymux.Array.html"),
    ],
)
def test_search_finds_api_objects(server, browser, query, page):
    tab = browser.new_page()
    tab.goto(urljoin(server, f"search.html?q={query}"), wait_until="load")
    tab.wait_for_selector("#search-results li, ul.search li", timeout=20000)
    hrefs = tab.eval_on_selector_all("#search-results li a", "els => els.map(a => a.href)")
    tab.close()
    assert any(urlparse(h).path.endswith(f"generated/api/{page}") for h in hrefs[:3]), hrefs[:5]
