"""``loo-tutor classroom``: the notebooks served as apps for a class, with Voila.

Each notebook of the folder (``notebooks/`` by default) opens as an app: its
cells run on the server, code hidden, and the reader sees the widgets. For a
class the server

* listens on 127.0.0.1 unless ``--host`` says otherwise, and requires a token
  whenever it listens on another address (one is generated unless
  ``--token`` gives it); the address printed includes it;
* keeps one kernel per notebook started and run ahead (Voila's preheated
  kernels), so a page is live well within a second after it is opened;
* stops kernels left idle (``--cull-after``: 20 minutes by default, or
  seconds written ``30s``) once no page is connected to them;
* runs no code the browser sends: the notebooks run on the server when a
  page is opened, and Voila's kernel websocket passes on only the messages
  widgets need (comm messages, kernel and comm info, shutdown), so a
  request to execute code, inspect or complete names is dropped, whoever
  sends it; Voila's route for running cells sent by the page (progressive
  rendering) stays off;
* serves each notebook as a light page of the project's own: the server
  draws the whole notebook (text, and output other than widgets) into the
  page, and one script of 0.56 MB (0.16 MB compressed), bundled by ./dev
  from npm's widget packages (classroom_page/), connects to the page's
  kernel and draws the widgets. Voila's own JupyterLab front end (5 MB)
  took about 1.8 s to start in a browser that had not seen it before. When
  the script has not been built, the page is Voila's own, as before;
* shows no notebook source, and its pages load nothing from another host:
  the light page's script, style sheet and icon font come from this
  server, and Voila's page drops the stylesheet links that Voila's
  templates make to a CDN (its icon font comes with Voila itself);
* serves the built book (``_build/html`` beside the notebooks, when it
  exists) under ``/voila/``, so the rule links in the widgets lead to the
  rules pages as they do in the book;
* sends the page's scripts and style sheets compressed (gzip, each file
  compressed once and kept in memory: the 1.0 MB the light forced-ace page
  loads go out as 0.3 MB, Voila's own page's 5.0 MB as 1.4 MB) and lets the
  browser keep them: the light page's files for good (their addresses carry
  a hash of their content), Voila's own files for an hour, so a page opened
  again, or reloaded, asks the server again only for itself.

Voila is optional: without it the command says how to install it and
exits with status 2.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import ipaddress
import os
import secrets
import shutil
import socket
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

EXIT_BAD = 2
TEMPLATE = "loo-classroom"
INSTALL_HINT = "pip install 'voila>=0.5,<0.6' 'loo-tutor[widgets]'"

# A MyST target such as "(try-lead-as-a)=" heads some markdown cells of the
# notebooks, for the book's cross-references; both kinds of page leave it out
# instead of showing it as a paragraph.
_NO_MYST_TARGETS = """
{%- block markdowncell scoped -%}
{%- set kept = [] -%}
{%- for line in cell.source.split('\\n') -%}
{%- if not (line.startswith('(') and line.rstrip().endswith(')=')) -%}
{%- set _ = kept.append(line) -%}
{%- endif -%}
{%- endfor -%}
{%- set _ = cell.update({'source': kept | join('\\n')}) -%}
{{ super() }}
{%- endblock markdowncell -%}
"""
# The project's Voila templates. The light page (used when ./dev has built
# its script, see classroom_page/) has the server draw the whole notebook, as
# nbconvert's lab page does, except each widget, which is left as an empty
# place named by its model; the page's one script (about 0.16 MB compressed,
# in place of the 1.4 MB of Voila's JupyterLab front end) connects to the
# page's kernel, loads the widgets' state and draws them in their places. The
# loading sign stays until then; it does not turn (five waiting pages turning
# theirs kept a quarter of a core busy, in Chromium without a GPU). The
# kernel is started, and the cells run, by Voila's own calls in the body, as
# in Voila's templates.
_LIGHT_INDEX = """{%- extends 'nbconvert/templates/lab/index.html.j2' -%}
{% import "spinner.macro.html.j2" as spinner %}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block notebook_css -%}
{{ super() }}
<link rel="stylesheet" type="text/css" href="{{ resources.include_url('static/classroom.css') }}">
<script defer src="{{ resources.include_url('static/classroom.js') }}"></script>
{{ spinner.css() }}
<style>
  #loading .spinner { animation: none; }
  .jp-mod-noOutputs.jp-mod-noInput { display: none; }
</style>
{%- endblock notebook_css -%}
{%- block body_header -%}
<link rel="icon" href="data:,">
<body class="jp-Notebook theme-light" data-base-url="{{ resources.base_url }}voila/" data-jp-theme-light="true" data-jp-theme-name="JupyterLab Light" data-voila="voila">
<noscript><p>The Loo Tutor classroom needs JavaScript.</p></noscript>
<div id="loading" role="status">
  <div class="spinner-container">
    <svg class="spinner" viewBox="0 0 500 500" xmlns="http://www.w3.org/2000/svg" aria-hidden="true"><path class="voila-spinner-color1" d="m250 405c-85.47 0-155-69.53-155-155s69.53-155 155-155 155 69.53 155 155-69.53 155-155 155zm0-275.5a120.5 120.5 0 1 0 120.5 120.5 120.6 120.6 0 0 0-120.5-120.5z"/><path class="voila-spinner-color2" d="m250 405c-85.47 0-155-69.53-155-155a17.26 17.26 0 1 1 34.51 0 120.6 120.6 0 0 0 120.5 120.5 17.26 17.26 0 1 1 0 34.51z"/></svg>
  </div>
  <h2 id="loading_text">Starting the page...</h2>
</div>
<script>
  window.voila_process = function (index, count) {
    var line = document.getElementById('loading_text');
    if (line) { line.textContent = 'Running ' + index + ' of ' + count; }
  };
</script>
<div id="rendered_cells" style="display: none">
  <div>
{%- endblock body_header -%}
{%- block body_loop -%}
  {% set page_config_full = page_config.copy() %}
  {%- with kernel_id = kernel_start(nb) -%}
    {% set _ = page_config_full.update(baseUrl=resources.base_url, kernelId=kernel_id) %}
    <script id="jupyter-config-data" type="application/json">
      {{ page_config_full | tojson }}
    </script>
    {% set cell_count = nb.cells|length %}
    {%- for cell in cell_generator(nb, kernel_id) -%}
      {% set cellloop = loop %}
      {%- block any_cell scoped -%}
        <div cell-index="{{ cellloop.index }}">
          <script>voila_process({{ cellloop.index }}, {{ cell_count }})</script>
          {{ super() }}
        </div>
      {%- endblock any_cell -%}
    {%- endfor -%}
  {% endwith %}
{%- endblock body_loop -%}
{%- block data_widget_view scoped -%}
<div class="jupyter-widgets jp-OutputArea-output" data-loo-model-id="{{ output.data['application/vnd.jupyter.widget-view+json'].model_id }}"></div>
{%- endblock data_widget_view -%}
{%- block body_footer -%}
  </div>
</div>
</body>
{%- endblock body_footer -%}
""" + _NO_MYST_TARGETS
# Without the light page's script, the notebook page is Voila's "lab" page
# (its JupyterLab front end) without the lines of its stylesheet block that
# link to another host, and with the same still loading sign. Its
# page.html (error pages) and tree pages (the list of notebooks) are the
# project's own: Voila's put a CDN stylesheet link outside any block, and its
# list page starts the whole JupyterLab front end just to show links.
_CONF_JSON = '{"base_template": "lab"}\n'
_VOILA_INDEX = """{%- extends 'lab/index.html.j2' -%}
{%- block notebook_css -%}
{%- for line in super().split('\\n') -%}
{%- if not (('<link' in line or '<script' in line) and '://' in line) %}
{{ line }}
{%- endif -%}
{%- endfor %}
<style>
  /* The loading sign stands still: a turning one is drawn again every frame,
     processor time a page spends for as long as it waits. */
  #loading .spinner { animation: none; }
</style>
{%- endblock notebook_css -%}
""" + _NO_MYST_TARGETS
_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <title>{% block title %}Loo Tutor classroom{% endblock %}</title>
  <link rel="icon" href="data:,">
  <style>
    body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1b1b1b; background: #fafaf7; }
    main { max-width: 40em; margin: 3em auto; padding: 0 1em; }
    h1 { font-size: 1.6em; }
    ul.loo-notebooks { list-style: none; padding: 0; }
    ul.loo-notebooks li { margin: 0.4em 0; }
    ul.loo-notebooks a { display: block; padding: 0.6em 0.9em; border: 1px solid #c9c9c0;
      border-radius: 0.4em; background: #fff; color: #0b57d0; text-decoration: none; }
    ul.loo-notebooks a:hover, ul.loo-notebooks a:focus { border-color: #0b57d0; }
  </style>
  {% block stylesheets %}{% endblock %}
  {% block meta %}{% endblock %}
</head>
<body data-base-url="{{ base_url }}voila/" data-voila="voila">
  <noscript><p>The Loo Tutor classroom needs JavaScript.</p></noscript>
  <main>{% block body %}{% endblock %}</main>
  {% block scripts %}{% endblock %}
</body>
</html>
"""
_TREE = """{% extends "page.html" %}
{% block title %}Loo Tutor classroom{% endblock %}
{% block body %}
<h1>Loo Tutor</h1>
<p>Choose a page. Its cards and buttons run the rules engine on this server.</p>
<ul class="loo-notebooks">
{% if breadcrumbs|length > 1 %}
  <li><a href="{{ breadcrumbs[-2][0] }}{% if query %}?{{ query }}{% endif %}">..</a></li>
{% endif %}
{% for content in contents.content %}
{% if content.type == 'notebook' %}
  <li><a href="{{ base_url }}voila/render/{{ content.path }}{% if query %}?{{ query }}{% endif %}">{{ content.name[:-6].replace('-', ' ') }}</a></li>
{% elif content.type == 'directory' %}
  <li><a href="{{ base_url }}voila/tree/{{ content.path }}{% if query %}?{{ query }}{% endif %}">{{ content.name }}/</a></li>
{% endif %}
{% endfor %}
</ul>
{% endblock %}
"""


def _duration(minutes: float) -> str:
    return f"{round(minutes * 60)} s" if minutes < 1 else f"{minutes:g} min"


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _reachable_address(host: str) -> str:
    """An address other machines can use to reach a server bound to ``host``."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks a route
        return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def _port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host``:``port``, or ``None`` if it can."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    probe = socket.socket(family, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
    except OSError as exc:
        return exc.strerror or str(exc)
    finally:
        probe.close()
    return None


def address(host: str, port: int, token: str | None) -> str:
    """The URL to open, with the token when there is one."""
    shown = _reachable_address(host)
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


PAGE_SCRIPT = Path(__file__).resolve().parent.parent / "_vendor_js" / "classroom"
"""Where ``./dev`` builds the light page's script and style sheet (from classroom_page/)."""
_PAGE_FILES = ("classroom.js", "classroom.css")


def light_page_ready(script: Path = PAGE_SCRIPT) -> bool:
    """Whether the light page's script and style sheet are built in ``script``."""
    return all((script / name).is_file() for name in _PAGE_FILES)


def write_template(root: Path, script: Path | None = PAGE_SCRIPT) -> Path:
    """Write the project's Voila template under ``root``; returns the data folder for JUPYTER_PATH.

    The notebook page is the light page when ``script`` holds its built
    files (they are copied beside the template, which Voila serves), else
    Voila's own lab page.
    """
    folder = root / "voila" / "templates" / TEMPLATE
    folder.mkdir(parents=True, exist_ok=True)
    light = script is not None and light_page_ready(script)
    (folder / "conf.json").write_text(_CONF_JSON, encoding="utf-8")
    (folder / "index.html.j2").write_text(_LIGHT_INDEX if light else _VOILA_INDEX,
                                          encoding="utf-8")
    (folder / "page.html").write_text(_PAGE, encoding="utf-8")
    for name in ("tree.html", "tree-lab.html"):
        (folder / name).write_text(_TREE, encoding="utf-8")
    if light and script is not None:
        shutil.copytree(script, folder / "static", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".*"))
    return root


def voila_config(notebooks: Path, host: str, port: int, token: str | None, pool_size: int,
                 cull_after: float) -> dict[str, dict[str, Any]]:
    """The Voila settings for a classroom, as traitlets configuration sections.

    ``cull_after`` is in minutes (a fraction for seconds); 0 keeps idle kernels.
    """
    kernels: dict[str, Any] = {}
    if cull_after:
        timeout = max(1, round(cull_after * 60))
        kernels.update(cull_idle_timeout=timeout, cull_interval=max(1, min(60, timeout // 2)),
                       cull_connected=False)
    return {
        "Voila": {"ip": host, "port": port, "port_retries": 0, "open_browser": False,
                  "root_dir": str(notebooks), "token": token or ""},
        "VoilaConfiguration": {"template": TEMPLATE, "strip_sources": True,
                               "show_tracebacks": False, "preheat_kernel": pool_size > 0,
                               "default_pool_size": pool_size, "theme": "light",
                               # JupyterLite's kernel extension, installed for the
                               # book's in-browser pages, fails to load in Voila.
                               "extension_denylist": ["@jupyterlite/pyodide-kernel-extension"],
                               # Voila's route that runs cells sent by the page.
                               "progressive_rendering": False},
        "MappingKernelManager": kernels,
    }


def _sent_at_once(route: Any) -> Any:
    """``route``, with a websocket handler that sends each message without delay.

    Tornado leaves Nagle's algorithm on for websockets, so a widget's small
    reply to a click waits for the browser's delayed acknowledgement of the
    last packet (about 40 ms on Linux) before it goes out.
    """
    websocket = importlib.import_module("tornado.websocket")
    if not (isinstance(route, tuple) and len(route) >= 2 and isinstance(route[1], type)
            and issubclass(route[1], websocket.WebSocketHandler)):
        return route

    def open_at_once(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.set_nodelay(True)
        return route[1].open(self, *args, **kwargs)

    prompt = type(route[1].__name__, (route[1],), {"open": open_at_once})
    return (route[0], prompt, *route[2:])


CACHE_SECONDS = 3600
"""How long a browser may keep Voila's own files without asking again."""
_CACHED_ROUTES = ("/voila/static/", "/voila/templates/", "/voila/labextensions/")
_COMPRESSED = (".js", ".css", ".svg", ".json", ".html", ".txt", ".ttf", ".eot", ".otf")
_packed: dict[tuple[str, int], bytes] = {}


def _gzipped(path: str) -> bytes:
    """The file at ``path`` compressed with gzip, compressed once per version of the file."""
    key = (path, os.stat(path).st_mtime_ns)
    if key not in _packed:
        with open(path, "rb") as source:
            _packed[key] = gzip.compress(source.read(), compresslevel=6, mtime=0)
    return _packed[key]


def _packed_route(route: Any) -> Any:
    """``route`` with its static files sent compressed, and Voila's own cached an hour.

    Voila's files keep their names from one version of Voila to the next, so
    the hour is a bound on how long a browser could mix files of two
    versions after an upgrade. The widget extensions' files carry a hash of
    their content and may be kept for good, as Voila would if it did not turn
    caching off for them.
    """
    web = importlib.import_module("tornado.web")
    if not (isinstance(route, tuple) and len(route) >= 2 and isinstance(route[1], type)
            and issubclass(route[1], web.StaticFileHandler)):
        return route
    base: Any = route[1]
    cached = any(part in str(route[0]) for part in _CACHED_ROUTES)

    def get_cache_time(self: Any, path: str, modified: Any, mime_type: str) -> int:
        seconds: int = base.get_cache_time(self, path, modified, mime_type)
        return seconds or (CACHE_SECONDS if cached else 0)

    def set_headers(self: Any) -> None:
        base.set_headers(self)
        path = str(self.absolute_path)
        if (not path.endswith(_COMPRESSED) or self.request.headers.get("Range")
                or "gzip" not in self.request.headers.get("Accept-Encoding", "")):
            return
        body = _gzipped(path)
        self.set_header("Content-Encoding", "gzip")
        self.set_header("Vary", "Accept-Encoding")
        # Read by StaticFileHandler.get for this response only.
        self.get_content_size = lambda: len(body)
        self.get_content = lambda *_: body

    handler = type(base.__name__, (base,), {"get_cache_time": get_cache_time,
                                            "set_headers": set_headers})
    extra = list(route[2:])
    if extra and isinstance(extra[0], dict) and "no_cache_paths" in extra[0]:
        extra[0] = {**extra[0], "no_cache_paths": []}
    return (route[0], handler, *extra)


def run(args: argparse.Namespace) -> int:
    """Run the classroom server until it is stopped (Ctrl-C or SIGTERM)."""
    try:
        voila_app = importlib.import_module("voila.app")
        traitlets_config = importlib.import_module("traitlets.config")
        web = importlib.import_module("tornado.web")
        ioloop = importlib.import_module("tornado.ioloop")
    except ImportError:
        print(f"error: loo-tutor classroom needs Voila, which is not installed; "
              f"install it with: {INSTALL_HINT}", file=sys.stderr)
        return EXIT_BAD

    notebooks = Path(args.notebooks).resolve()
    count = len(list(notebooks.glob("*.ipynb"))) if notebooks.is_dir() else 0
    if count == 0:
        print(f"error: no notebooks in {args.notebooks!r}; give the folder of notebooks "
              "to serve (see 'loo-tutor classroom --help')", file=sys.stderr)
        return EXIT_BAD
    problem = _port_problem(args.host, args.port)
    if problem:
        print(f"error: cannot listen on {args.host} port {args.port}: {problem}; "
              "choose another with --port", file=sys.stderr)
        return EXIT_BAD
    token = args.token
    if token is None and not is_loopback(args.host):
        token = secrets.token_urlsafe(24)
    book = Path(args.book).resolve() if args.book else notebooks.parent / "_build" / "html"
    if args.book and not (book / "index.html").exists():
        print(f"error: {args.book!r} is not a built book (no index.html)", file=sys.stderr)
        return EXIT_BAD
    serve_book = (book / "index.html").exists()

    with tempfile.TemporaryDirectory(prefix="loo-classroom-") as tmp:
        light = args.page == "light" and light_page_ready()
        data = write_template(Path(tmp), PAGE_SCRIPT if light else None)
        os.environ["JUPYTER_PATH"] = os.pathsep.join(
            p for p in (str(data), os.environ.get("JUPYTER_PATH", "")) if p)
        config = traitlets_config.Config(voila_config(
            notebooks, args.host, args.port, token, args.pool_size, args.cull_after))

        def handlers(self: Any) -> list[Any]:
            found: list[Any] = [_packed_route(_sent_at_once(route))
                                for route in voila_app.Voila.init_handlers(self)]
            if serve_book:
                # Last, so Voila's own /voila/... routes win.
                found.append(_packed_route((r"/voila/(.*)", web.StaticFileHandler,
                                            {"path": str(book), "default_filename": "index.html"})))
            return found

        classroom = type("ClassroomVoila", (voila_app.Voila,), {"init_handlers": handlers})
        app = classroom(config=config)
        app.initialize(argv=[])

        def announce() -> None:
            where = "this machine only" if is_loopback(args.host) else "the network (token required)"
            print(f"loo-tutor classroom: {count} notebooks from {args.notebooks}, on {where}; "
                  f"{args.pool_size} kernel(s) per notebook kept ready"
                  + (f", idle kernels stopped after {_duration(args.cull_after)}" if args.cull_after
                     else "")
                  + (f"; rule links open the book in {book}" if serve_book else ""), flush=True)
            if args.page == "light" and not light:
                print("note: the light page's script is not built (./dev builds it into "
                      f"{PAGE_SCRIPT}); the pages use Voila's own front end", flush=True)
            print(f"Open {address(args.host, args.port, token)} in a browser "
                  "(Ctrl-C stops the server).", flush=True)

        ioloop.IOLoop.current().add_callback(announce)
        try:
            app.start()
        except KeyboardInterrupt:
            pass
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m loo_tutor.classroom``: the same as ``loo-tutor classroom``."""
    from .cli import main as command

    return command(["classroom", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    raise SystemExit(main())
