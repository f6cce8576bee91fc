"""The classroom's light page: the project's own front end for Voila's notebook pages.

``loo-tutor classroom`` serves each notebook as a page the server draws
whole, except the widgets, which the page's one script (built by ./dev from
classroom_page/) draws once it has their state from the page's kernel. These
tests check the template with and without that script, and then, in
Debian's Chromium against a running classroom, what the script must do that
the project's notebooks do not all exercise: an Output widget that captures
a matplotlib figure and the text a button's handler prints, a widget whose
value travels as a binary buffer, a description written in HTML cleaned of
what could run code, the loading sign until the widgets are live, and no
request to any other host.
"""

from __future__ import annotations

import gzip
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import nbformat
import pytest

from loo_tutor.apps.classroom import server as classroom

from browser_support import LIVE_TIMEOUT_MS, in_browser, new_page, outside_site
from classroom_server import (
    Server,
    free_port,
    kernel_ids,
    page_cookie,
    start,
    stop,
    wait_until_quiet,
)


@pytest.fixture
def script() -> Path:
    """The built light page's files; a failure, never a skip, when they are missing."""
    if not classroom.light_page_ready():
        pytest.fail(f"the light page's script is missing from {classroom.PAGE_SCRIPT}: "
                    "./dev builds it (./dev test does before running pytest)")
    return classroom.PAGE_SCRIPT


# -- the templates, without a server --------------------------------------------------

def _fake_script(folder: Path) -> Path:
    folder.mkdir()
    (folder / "classroom.js").write_text("/* script */", encoding="utf-8")
    (folder / "classroom.css").write_text("/* style */", encoding="utf-8")
    return folder


def test_with_the_script_the_page_is_the_light_one(tmp_path: Path) -> None:
    script = _fake_script(tmp_path / "script")
    assert classroom.light_page_ready(script)
    assert classroom.page_template("light", script) == classroom.TEMPLATE
    folder = classroom.TEMPLATES / "voila" / "templates" / classroom.TEMPLATE
    index = (folder / "index.html.j2").read_text(encoding="utf-8")
    assert "static/classroom.js" in index and "data-loo-model-id" in index
    assert "kernel_start(nb)" in index and "cell_generator(nb, kernel_id)" in index
    assert "#loading .spinner { animation: none; }" in index
    # ./dev builds the script where Voila serves the template's static files from.
    assert folder / "static" == classroom.PAGE_SCRIPT


def test_without_the_script_the_page_is_voilas_own(tmp_path: Path) -> None:
    empty = tmp_path / "not-built"
    empty.mkdir()
    assert not classroom.light_page_ready(empty)
    assert classroom.page_template("light", empty) == classroom.VOILA_TEMPLATE
    script = _fake_script(tmp_path / "script")
    assert classroom.page_template("voila", script) == classroom.VOILA_TEMPLATE
    folder = classroom.TEMPLATES / "voila" / "templates" / classroom.VOILA_TEMPLATE
    index = (folder / "index.html.j2").read_text(encoding="utf-8")
    assert "lab/index.html.j2" in index and "classroom.js" not in index
    assert not (folder / "static").exists()


def test_the_built_style_sheet_loads_nothing_from_another_host(script: Path) -> None:
    css = (script / "classroom.css").read_text(encoding="utf-8")
    urls = re.findall(r"url\(([^)]*)\)", css)
    assert any("woff2" in url for url in urls)  # the icon font comes with the page
    assert not [u for u in urls if re.match(r"['\"]?(https?:)?//", u)]
    assert "@import" not in css


# -- a notebook with what the project's notebooks do not all have ----------------------

# Widget descriptions written to run code (the widget manager draws a
# description as HTML when asked to); each must be drawn inert.
_HOSTILE = [
    '<img src="data:image/png;base64,AAAA" onerror="window.hacked=4">picture',
    '<a href="javascript:window.hacked=5" title="a link">first link</a> '
    '<a href=" JaVaScRiPt:window.hacked=6">second link</a> '
    '<a href="&#106;avascript:window.hacked=7">third link</a> '
    '<a href="https://example.org/rules" onmouseover="window.hacked=8">safe link</a>',
    '<svg onload="window.hacked=9"><script>window.hacked=10</script>'
    '<a href="javascript:window.hacked=11"><text>drawn</text></a></svg>'
    '<span style="color: red" aria-label="kept" onclick="window.hacked=12">styled</span>',
    '<b onmouseover="window.hacked=13">bold</b><iframe src="javascript:window.hacked=14">'
    '</iframe><style>body { display: none }</style><form action="javascript:1">form</form>',
]
# An Output widget and a button whose handler prints into it.
_GREETER = ("button = widgets.Button(description='Say hello')\n"
            "def greet(_):\n"
            "    with out:\n"
            "        print('hello from the kernel')\n"
            "button.on_click(greet)\n"
            "widgets.VBox([button, out])")
_CELLS = [
    nbformat.v4.new_markdown_cell(  # headed by a MyST target, as the book's notebooks are
        "(a-target)=\n# Output widgets\n\nA figure and a button's output."),
    nbformat.v4.new_code_cell(
        "import ipywidgets as widgets\n"
        "import matplotlib\n"
        "import matplotlib.pyplot as plt\n"
        "out = widgets.Output()\n"
        "with out:\n"
        "    fig, ax = plt.subplots(figsize=(2, 2))\n"
        "    ax.plot([0, 1, 2], [2, 0, 1])\n"
        "    plt.show()\n" + _GREETER),
    nbformat.v4.new_code_cell(
        "import base64\n"
        "PIXEL = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQ"
        "DwAEhQGAhKmMIQAAAABJRU5ErkJggg==')\n"
        "widgets.Image(value=PIXEL, format='png', width=8, height=8)"),
    nbformat.v4.new_code_cell(
        "widgets.Checkbox(description='<b>bold</b><i onclick=\"window.hacked=1\">it</i>"
        "<img src=\"javascript:window.hacked=2\"><script>window.hacked=3</script>',"
        " description_allow_html=True)"),
    nbformat.v4.new_code_cell(
        f"hostile = {_HOSTILE!r}\n"
        "widgets.VBox([widgets.Text(description=d, description_allow_html=True)\n"
        "              for d in hostile])"),
    nbformat.v4.new_markdown_cell("This cell is about the book's own pages only.",
                                  metadata={"tags": [classroom.BOOK_ONLY_TAG]}),
    nbformat.v4.new_code_cell("print('printed by a cell')"),
]


def _folder_with(folder: Path, name: str, cells: list[Any]) -> Path:
    """``folder``, holding the one notebook ``name`` made of ``cells``."""
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    nbformat.write(notebook, folder / name)
    return folder


@pytest.fixture(scope="module")
def notebooks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the one notebook ``output.ipynb``."""
    return _folder_with(tmp_path_factory.mktemp("notebooks"), "output.ipynb", _CELLS)


@pytest.fixture(scope="module")
def output_server(notebooks: Path) -> Iterator[Server]:
    server = start("--port", str(free_port()), notebooks=notebooks)
    try:
        deadline = time.monotonic() + 90
        while not any("Kernel pool of output.ipynb is filled" in line for line in server.log):
            if time.monotonic() > deadline or server.process.poll() is not None:
                pytest.fail("the kernel was never ready:\n" + "".join(server.log[-30:]))
            time.sleep(0.2)
        # The pool is said to be filled once its kernel has started; it then runs the cells.
        wait_until_quiet(server, 90)
        yield server
    finally:
        stop(server)


def test_output_widgets_buffers_and_html_descriptions(output_server: Server, script: Path) -> None:
    requests: list[str] = []
    errors: list[str] = []

    def look(browser: Any) -> None:
        with new_page(browser, requests, errors) as page:
            page.goto(output_server.url + "voila/render/output.ipynb", wait_until="commit")
            # The loading sign is up until the widgets are drawn, then gone.
            page.locator("#loading").wait_for(state="attached", timeout=30_000)
            # As long as any live page gets: in full runs on a busy machine, 30 s and then
            # 60 s were not enough.
            page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                                   timeout=LIVE_TIMEOUT_MS)
            assert page.locator("#loading").count() == 0
            assert page.locator("#rendered_cells").is_visible()
            assert "A figure and a button's output." in page.inner_text("#rendered_cells")
            assert "(a-target)=" not in page.inner_text("#rendered_cells")  # a MyST target
            assert "printed by a cell" in page.inner_text("#rendered_cells")  # drawn by the server
            assert page.locator(".jp-InputArea-editor, .jp-InputPrompt").count() == 0

            # The figure the kernel showed inside the Output widget as it ran the cell.
            area = page.locator(".jupyter-widgets-output-area")
            figure = area.locator("img")
            figure.wait_for(timeout=10_000)
            assert figure.get_attribute("src").startswith("data:image/png;base64,")
            assert "Figure" in (figure.get_attribute("alt") or "")

            # A click runs the handler in the kernel; what it prints lands in the widget.
            page.locator("button", has_text="Say hello").click()
            area.locator("pre", has_text="hello from the kernel").wait_for(timeout=10_000)
            assert area.locator("img").count() == 1

            # A connection that drops is made again, with a notice meanwhile.
            page.evaluate("window.looClassroom.kernel.socket.close()")
            page.locator(".loo-connection[role=alert]").wait_for(timeout=5_000)
            page.locator(".loo-connection").wait_for(state="detached", timeout=20_000)
            page.locator("button", has_text="Say hello").click()
            page.wait_for_function(
                "document.querySelector('.jupyter-widgets-output-area pre').textContent"
                ".split('hello from the kernel').length === 3", timeout=10_000)

            # The image's bytes came over the websocket as a binary buffer.
            image = page.locator("img.widget-image")
            assert image.get_attribute("src").startswith("blob:")
            assert image.evaluate("img => img.complete && img.naturalWidth") == 1

            # The HTML description keeps its bold text but nothing that runs code.
            bold = page.locator(".widget-checkbox b", has_text="bold")
            html = bold.evaluate("b => b.parentElement.innerHTML")
            assert "<b>bold</b>" in html
            assert "<i>it</i>" in html and "<img>" in html
            assert "onclick" not in html and "javascript:" not in html and "<script" not in html
            assert page.evaluate("window.hacked === undefined")

            # The hostile descriptions: the text stays, nothing in them can run.
            hostile = page.locator(".widget-text")
            assert hostile.count() == 4
            text = page.inner_text("#rendered_cells")
            for kept in ("picture", "first link", "second link", "third link", "safe link",
                         "styled", "bold", "form"):
                assert kept in text, kept
            for link in ("first link", "second link", "third link"):
                page.locator(".widget-text a", has_text=link).click()
            page.locator(".widget-text a", has_text="safe link").hover()
            page.locator(".widget-text span", has_text="styled").click()
            page.locator(".widget-text b", has_text="bold").hover()
            page.wait_for_timeout(500)  # nothing to wait for: a handler that ran would have by now
            assert page.evaluate("window.hacked === undefined")
            assert page.url.endswith("output.ipynb")  # no link took the page anywhere
            found = page.evaluate("""() => {
              const inside = [...document.querySelectorAll('.widget-text *')];
              return {
                handlers: inside.flatMap((e) => [...e.attributes]
                  .filter((a) => a.name.startsWith('on')).map((a) => e.tagName + ' ' + a.name)),
                scripts: inside.filter((e) => /^(script|svg|iframe|style|form)$/i.test(e.tagName))
                  .map((e) => e.tagName),
                urls: inside.flatMap((e) => ['href', 'src', 'action', 'xlink:href']
                  .map((n) => e.getAttribute(n)).filter((v) => v !== null)),
                safe: inside.filter((e) => e.tagName === 'A' && e.title === 'a link').length,
                styled: inside.filter((e) => e.tagName === 'SPAN' && e.style.color === 'red'
                  && e.getAttribute('aria-label') === 'kept').length,
              };
            }""")
            assert found["handlers"] == [] and found["scripts"] == [], found
            assert found["urls"] == ["data:image/png;base64,AAAA", "https://example.org/rules"], \
                found["urls"]
            assert found["safe"] == 1 and found["styled"] == 1, found
            assert page.locator("body").is_visible()
            # The cell tagged book-only is left out; the others are drawn.
            assert "the book's own pages only" not in text

            # The checkbox works with the keyboard.
            box = page.locator(".widget-checkbox input[type=checkbox]")
            box.focus()
            page.keyboard.press("Space")
            assert box.is_checked()

    in_browser(look)
    assert not outside_site(requests, output_server.url), outside_site(requests, output_server.url)
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def test_the_page_script_is_sent_compressed_and_cacheable(output_server: Server,
                                                          script: Path) -> None:
    with urllib.request.urlopen(urllib.request.Request(
            output_server.url + "voila/render/output.ipynb",
            headers={"Cookie": page_cookie(output_server.url)}), timeout=120) as reply:
        page = reply.read().decode("utf-8")
    found = re.search(r'<script defer src="([^"]+/classroom\.js\?v=[0-9a-f]+)"', page)
    assert found, "the page does not load its script"
    request = urllib.request.Request(urljoin(output_server.url, found.group(1)),
                                     headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        packed = reply.read()
        assert reply.headers["Content-Encoding"] == "gzip"
        assert "max-age=" in reply.headers["Cache-Control"]
    plain = gzip.decompress(packed)
    assert plain == (script / "classroom.js").read_bytes()
    assert len(packed) < len(plain) / 3


def test_voilas_own_page_on_request(notebooks: Path) -> None:
    server = start("--port", str(free_port()), "--pool-size", "0", "--page", "voila",
                   notebooks=notebooks)
    try:
        with urllib.request.urlopen(urllib.request.Request(
                server.url + "voila/render/output.ipynb",
                headers={"Cookie": page_cookie(server.url)})) as reply:
            page = reply.read().decode("utf-8")
    finally:
        stop(server)
    assert "/voila/static/voila.js" in page and "classroom.js" not in page
    assert "printed by a cell" in page
    assert ">Output widgets<" in page and "(a-target)=" not in page  # a MyST target


# A notebook with only what the test on the network checks. The test once ran
# out of time on a busy machine: its page had to wait for the kernel kept
# ready to run the notebook above (the server says the pool is filled as the
# kernel starts, before the cells have run), and then for the kernel started
# to refill the pool to run it again, each drawing a matplotlib figure, while
# the browser loaded the page on the same two cores.
_HELLO = [nbformat.v4.new_code_cell(
    "import ipywidgets as widgets\nout = widgets.Output()\n" + _GREETER)]


@pytest.fixture(scope="module")
def hello(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the one notebook ``hello.ipynb``: a button that prints."""
    return _folder_with(tmp_path_factory.mktemp("hello"), "hello.ipynb", _HELLO)


def test_on_the_network_the_page_goes_live_with_its_token(hello: Path, script: Path) -> None:
    server = start("--host", "0.0.0.0", "--port", str(free_port()), notebooks=hello)
    errors: list[str] = []
    seen: dict[str, bool] = {}
    try:
        token = re.search(r"\?token=(\S+)$", server.url)
        assert token, server.url
        local = f"http://127.0.0.1:{server.port}/"

        def look(browser: Any) -> None:
            with new_page(browser, [], errors) as page:
                # Without the token the page is refused: the server asks for a login.
                page.goto(local + "voila/render/hello.ipynb")
                assert "/login" in page.url
                assert page.locator("[data-loo-model-id]").count() == 0
                page.goto(f"{local}voila/render/hello.ipynb?token={token.group(1)}",
                          wait_until="commit")
                page.wait_for_function(
                    "document.documentElement?.dataset.looClassroom === 'live'", timeout=LIVE_TIMEOUT_MS)
                page.locator("button", has_text="Say hello").click()
                page.locator(".jupyter-widgets-output-area pre",
                             has_text="hello from the kernel").wait_for(timeout=10_000)
                # Leaving, the page stops its kernel: the request carries the XSRF token
                # of the cookie the server gave, as the login cookie, not the URL's token,
                # is what authenticates it.
                kernel = page.evaluate("window.looClassroom.kernel.id")
                page.close(run_before_unload=True)
                deadline = time.monotonic() + 30
                while kernel in kernel_ids(server) and time.monotonic() < deadline:
                    time.sleep(0.2)
                seen["stopped"] = kernel not in kernel_ids(server)

        in_browser(look)
        # The class is over: what the server logs as it stops is not part of it.
        during = list(server.log)
    finally:
        stop(server)
    assert not errors, errors
    assert seen["stopped"], "the page's kernel still runs 30 s after the page was closed"
    warned = [n for n, line in enumerate(during)
              if re.search(r"\b(WARNING|ERROR|CRITICAL) \||Traceback", line)]
    assert not warned, "".join(during[warned[0]:warned[0] + 30])
