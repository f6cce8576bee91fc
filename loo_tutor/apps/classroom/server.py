"""``loo-tutor classroom``: the notebooks served as apps for a class, with Voila.

Each notebook of the folder (by default the book's notebooks, which come
with the package) opens as an app: its cells run on the server, code hidden,
and the reader sees the widgets. For a class the server

* listens on 127.0.0.1 unless ``--host`` says otherwise, and requires a token
  whenever it listens on another address (one is generated unless
  ``--token`` gives it); the address printed includes it;
* keeps one kernel per notebook started and run ahead (Voila's preheated
  kernels), so a page is live as soon as its script has run, and logs
  ``Kernel ready for NOTEBOOK`` once such a kernel has run its notebook
  (Voila's own line, that the pool is filled, comes as the kernel starts,
  before its cells have run: a page opened in between waits for them);
* stops kernels left idle (``--cull-after``: 20 minutes by default, or
  seconds written ``30s``) once no page is connected to them, and the
  kernel of a page closed normally at once (the page tells the server as
  it goes, with the XSRF token the server gave it in a cookie);
* runs no code the browser sends: the notebooks run on the server when a
  page is opened, and Voila's kernel websocket passes on only the messages
  widgets need (comm messages, kernel and comm info, shutdown), so a
  request to execute code, inspect or complete names is dropped, whoever
  sends it; Voila's route for running cells sent by the page (progressive
  rendering) stays off;
* trusts the notebooks it serves, for its own session only: serving a
  folder runs its notebooks, so each is signed at start with a secret and
  a signature store that live in memory and end with the server (nothing
  is written to the user's Jupyter data folder);
* serves each notebook as a light page of the project's own: the server
  draws the whole notebook (text, and output other than widgets) into the
  page, and one script, bundled by ./dev from npm's widget packages
  (classroom_page/) into the package's template folder, connects to the
  page's kernel and draws the widgets. When the script has not been
  built, the page is Voila's own JupyterLab front end, and the server says
  so when it starts;
* leaves out of the pages what belongs to the book only: markdown cells
  tagged ``book-only`` (about the book's in-browser pages) and the MyST
  targets such as ``(try-lead-as-a)=`` that head some cells for the
  book's cross-references;
* lists the notebooks by their titles, in the order of the book's table
  of contents (``_toc.yml`` beside the notebooks folder, when there is
  one), then any others by title;
* shows no notebook source, and its pages load nothing from another host:
  the light page's script, style sheet and icon font come from this
  server, and Voila's page drops the stylesheet links that Voila's
  templates make to a CDN (its icon font comes with Voila itself);
* serves everything under a prefix when ``--base-url`` gives one (such as
  ``/user/ann/`` behind JupyterHub's proxy): Voila's routes and the
  classroom's own, the cookies, the pages' scripts and the addresses it
  prints, and nothing at the paths without it (:func:`~.doors.normal_base`);
* serves the class as a JupyterHub service with ``--hub`` (:mod:`.hub`): the
  address, the prefix, the class's name and its store come from the
  environment the Hub gives, students come through the Hub's proxy with no
  token, and the teacher logs in with the Hub instead of giving a token,
  as a member of the Hub's group ``teachers-NAME``;
* serves the built book (``_build/html`` beside the notebooks, when it
  exists) under ``/voila/``, so the rule links in the widgets lead to the
  rules pages as they do in the book;
* sends the page's scripts and style sheets compressed (gzip, each file
  compressed once and kept in memory) and lets the browser keep them: the
  light page's files for good (their addresses carry a hash of their
  content), Voila's own files for an hour, so a page opened again, or
  reloaded, asks the server again only for itself;
* keeps the class in a folder (``--data``, or a new folder it names at
  start), or as one class (``--class-name``) of a PostgreSQL database
  (``--data postgresql://...``, :mod:`.postgres`): students join by name
  (:mod:`.handlers`, :mod:`.identity`), every exercise
  checked on a page is judged again by the server and kept
  (:mod:`.store`), and the teacher watches the class on a page of their
  own (:mod:`.handlers`), with the token printed at start; on
  another address than this machine's, a class code is made and printed
  unless ``--class-code`` gives one (of at least 8 letters or digits); the
  database's write-ahead log is copied into ``class.sqlite3`` every half
  minute and when the server stops, so that file alone is the class, and a
  class that cannot be kept (a folder it may not write, a damaged
  database) is said at start, on the teacher's page and in a line when it
  happens, while every answer and join is refused with a plain reason;
* keeps its own routes behind the same doors as Voila's (the token, the
  XSRF check), limits joining and answering, and judges only the exercises
  its kernels issued, which they sign with a key kept in the class folder
  and given to them in their environment (:mod:`.doors`,
  :mod:`loo_tutor.teaching.issued`); refuses a request's body over
  :data:`~.app.LARGEST_BODY` before reading it, and logs requests with tokens
  hidden;
* starts each kernel as :mod:`.kernel` (ipykernel without its
  debugger or history file), forked from one warm parent process that has
  imported ipykernel and the widgets once (:mod:`.kernels`);
* takes at most ``--max-students`` students at once, or as many as the
  machine's cores and memory hold, printed at start; a student who comes
  when the class is full gets at once a page that says it is waiting for a
  place, which opens the app when one is free, or says that the class is
  full after ``--wait-for-place`` (:mod:`.admission`); a place is a
  student's, whatever apps they open, a request without the page's cookie
  (a bare ``curl``) gets no kernel, and a tab closed without a goodbye
  frees its place within a minute (``--free-place-after``, 20 s by default);
* sends each websocket message at once, and says nothing above a debug
  line when a message finds its page closed (a student closing a tab).

The pages are Jinja templates shipped in the package
(``loo_tutor/apps/classroom/templates``): Voila renders the light page
(``loo-classroom``), Voila's own page without its links to other hosts
(``loo-classroom-voila``), and the list of notebooks and the error pages
they share (``loo-classroom-base``); :mod:`.pages` renders the classroom's own
(joining, the teacher's page, waiting for a place), each with its style sheet
in a file.

This module reads the command's arguments, prints what the server does, and
makes and starts :class:`~.app.ClassroomVoila` with the class (:mod:`.store`),
the admission and the doors; it imports nothing of Voila until then.

Voila is optional: without it the command says how to install it and
exits with status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import importlib
import ipaddress
import os
import secrets
import signal
import socket
import sys
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .store import ClassStore

EXIT_BAD = 2
INSTALL_HINT = "pip install 'voila>=0.5,<0.6' 'loo-tutor[widgets]'"

TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The Jupyter data folder holding the classroom's Voila templates (for JUPYTER_PATH)."""
NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
"""The book's notebooks, served unless a folder is given: package data, in a
checkout a link to ``notebooks/``."""
TEMPLATE = "loo-classroom"
"""The light page's template."""
VOILA_TEMPLATE = "loo-classroom-voila"
"""Voila's own page, for ``--page voila`` or when the light page's script is not built."""
PAGE_SCRIPT = TEMPLATES / "voila" / "templates" / TEMPLATE / "static"
"""Where ``./dev`` builds the light page's script and style sheet (from classroom_page/)."""
_PAGE_FILES = ("classroom.js", "classroom.css")
SCRIPT_MISSING = ("the light page's script is not built (in a checkout of loo-tutor, "
                  "./dev build builds it into the package, and a wheel built after that "
                  "carries it)")
"""Says how to get the light page's script when it is missing."""
KERNEL_SPECS = "loo_tutor.apps.classroom.kernels.ClassroomKernelSpecs"
"""The kernel spec manager that starts each Python kernel as the classroom's (by name:
it needs Jupyter, which is optional)."""
KERNEL_CLIENT = "loo_tutor.apps.classroom.kernels.WakefulKernelClient"
"""The client through which the server runs a page's notebook in its kernel."""
BOOK_ONLY_TAG = "book-only"
"""The tag of the notebooks' markdown cells that the classroom leaves out."""


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


def new_class_folder(where: Path) -> Path:
    """A folder ``loo-class-DATE-TIME`` made in ``where`` for this start alone.

    Two starts in the same second get ``…-2``, ``…-3``: making the folder is
    what claims the name.
    """
    stem = time.strftime("loo-class-%Y-%m-%d-%H%M%S")
    for number in range(1, 1000):
        folder = where / (stem if number == 1 else f"{stem}-{number}")
        with contextlib.suppress(FileExistsError):
            folder.mkdir(parents=True)
            return folder
    raise FileExistsError(errno.EEXIST, "a thousand class folders of this second exist", str(where))


def address(host: str, port: int, token: str | None, base: str = "/") -> str:
    """The URL to open, under the prefix ``base``, with the token when there is one."""
    shown = _reachable_address(host)
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}{base}" + (f"?token={token}" if token else "")


def light_page_ready(script: Path = PAGE_SCRIPT) -> bool:
    """Whether the light page's script and style sheet are built in ``script``."""
    return all((script / name).is_file() for name in _PAGE_FILES)


def page_template(page: str, script: Path = PAGE_SCRIPT) -> str:
    """The template of the notebook pages: the light page when asked for and built, else Voila's."""
    return TEMPLATE if page == "light" and light_page_ready(script) else VOILA_TEMPLATE


def voila_config(notebooks: Path, host: str, port: int, token: str | None, pool_size: int,
                 cull_after: float, template: str = TEMPLATE,
                 base: str = "/") -> dict[str, dict[str, Any]]:
    """The Voila settings for a classroom, as traitlets configuration sections.

    ``cull_after`` is in minutes (a fraction for seconds); 0 keeps idle kernels.
    ``base`` is the server's prefix (from :func:`~.doors.normal_base`):
    Voila's routes and the XSRF cookie live under it (Voila leaves that cookie
    at ``/``, where the servers of other users behind one proxy would see it).
    The notary that says whether a notebook is trusted keeps its secret and
    its signatures in memory, for this server alone (see
    :func:`~.notebooks.sign_notebooks`).
    """
    kernels: dict[str, Any] = {}
    if cull_after:
        timeout = max(1, round(cull_after * 60))
        kernels.update(cull_idle_timeout=timeout, cull_interval=max(1, min(60, timeout // 2)),
                       cull_connected=False)
    return {
        "Voila": {"ip": host, "port": port, "port_retries": 0, "open_browser": False,
                  "root_dir": str(notebooks), "token": token or "", "base_url": base,
                  # The kernel websockets' pings (ms): a page that stops answering,
                  # a computer gone to sleep, is closed within about half a minute.
                  "tornado_settings": {"ws_ping_interval": 10_000,
                                       "ws_ping_timeout": 25_000,
                                       "xsrf_cookie_kwargs": {"path": base}}},
        "VoilaConfiguration": {"template": template, "strip_sources": True,
                               "show_tracebacks": False, "preheat_kernel": pool_size > 0,
                               "default_pool_size": pool_size, "theme": "light",
                               # JupyterLite's kernel extension, installed for the
                               # book's in-browser pages, fails to load in Voila.
                               "extension_denylist": ["@jupyterlite/pyodide-kernel-extension"],
                               # Voila's route that runs cells sent by the page.
                               "progressive_rendering": False,
                               "kernel_spec_manager_class": KERNEL_SPECS},
        "MappingKernelManager": kernels,
        # A kernel taken from the pool is replaced at once, not a second later (Voila's
        # default): with one kernel kept ready, a class arriving a student a second
        # would otherwise wait for a chain of kernels each started a second late.
        "VoilaKernelManager": {"fill_delay": 0},
        # The kernels talk to the server over local sockets in the server's own
        # folder rather than TCP ports any program on the machine can reach
        # (which ipykernel warns about); Windows has only TCP.
        "KernelManager": {"transport": "ipc"} if os.name == "posix" else {},
        # A wait for a kernel's message that cannot miss one already come (kernels.py).
        "AsyncKernelManager": {"client_class": KERNEL_CLIENT},
        "NotebookNotary": {"db_file": ":memory:", "secret": secrets.token_bytes(32)},
        "VoilaExporter": {"preprocessors": [f"{__name__.rpartition('.')[0]}.notebooks.without_myst_targets"]},
        "TagRemovePreprocessor": {"remove_cell_tags": [BOOK_ONLY_TAG]},
    }


def run(args: argparse.Namespace) -> int:
    """Run the classroom server until it is stopped (Ctrl-C or SIGTERM)."""
    try:
        importlib.import_module("voila.app")
        from . import admission, identity
        from .app import ClassroomVoila  # Voila's application, with the classroom's routes
        traitlets_config = importlib.import_module("traitlets.config")
        ioloop = importlib.import_module("tornado.ioloop")
    except ImportError:
        print(f"error: loo-tutor classroom needs Voila, which is not installed; "
              f"install it with: {INSTALL_HINT}", file=sys.stderr)
        return EXIT_BAD
    from jupyter_server.log import log_request

    from ...teaching.issued import KEY_VARIABLE
    from ...widgets.assignment import CLASS_FOLDER
    from .doors import Doors, code_problem, make_class_code
    from .engines import open_store
    from .notebooks import listing_of, read_notebooks
    from .store import DEFAULT_CLASS, ClassBookError

    service = None
    teachers = None
    class_name = getattr(args, "class_name", DEFAULT_CLASS)
    if getattr(args, "students", "name") == "hub" and not getattr(args, "hub", False):
        print("error: --students hub needs --hub: the students log in with the Hub the "
              "class is served by", file=sys.stderr)
        return EXIT_BAD
    if getattr(args, "hub", False):
        from .hub import Teachers, environment, service_from

        found = service_from(environment())
        if isinstance(found, str):
            print(f"error: {found}", file=sys.stderr)
            return EXIT_BAD
        service = found
        try:
            teachers = Teachers.of(service, students=getattr(args, "students", "") == "hub")
        except ImportError:
            print("error: --hub needs JupyterHub's Python package; install it with: "
                  "pip install 'loo-tutor[hub]'", file=sys.stderr)
            return EXIT_BAD
        # The Hub says where the class listens and under which prefix its proxy serves it.
        args.host, args.port, args.base_url = service.host, service.port, service.prefix
        if class_name == DEFAULT_CLASS:
            class_name = service.name
    notebooks = Path(args.notebooks or NOTEBOOKS).resolve()
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
    # Behind the Hub's proxy the students come with no token: the class code is their door.
    if token is None and not is_loopback(args.host) and service is None:
        token = secrets.token_urlsafe(24)
    book = Path(args.book).resolve() if args.book else notebooks.parent / "_build" / "html"
    if args.book and not (book / "index.html").exists():
        print(f"error: {args.book!r} is not a built book (no index.html)", file=sys.stderr)
        return EXIT_BAD
    serve_book = (book / "index.html").exists()

    try:
        data = args.data or (service.data if service else "") or new_class_folder(Path.cwd())
        book_of_class = open_store(data, class_name=class_name)
    except ClassBookError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD
    except OSError as exc:
        print(f"error: cannot make a class folder in {exc.filename}: {exc.strerror}; "
              "give one with --data", file=sys.stderr)
        return EXIT_BAD
    code = (args.class_code or "").strip()
    if code and (problem := code_problem(code)):
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_BAD
    if not code and args.class_code is None and not is_loopback(args.host):
        code = make_class_code()
    if args.new_teacher_token:
        try:
            book_of_class.new_teacher_token()
        except ClassBookError as exc:
            print(f"error: the teacher's token cannot be renewed: {exc}", file=sys.stderr)
            return EXIT_BAD
    with contextlib.suppress(ClassBookError):  # said below, and on the teacher's page
        book_of_class.summary()  # the answers kept so far added up once, before any page asks
    try:
        issue_key = book_of_class.setting("issue_key", secrets.token_hex(32))
    except ClassBookError:  # a class that cannot be kept: a key for this run alone
        issue_key = secrets.token_hex(32)
    doors = Doors(key=bytes.fromhex(issue_key))
    # The kernels sign the exercises they issue with this key (loo_tutor.teaching.issued);
    # they inherit it from the server's environment, and no page can read it. It is kept
    # with the class, so that checks a page kept while the server was away still count.
    os.environ[KEY_VARIABLE] = doors.key.hex()
    # The exercises page opens the class's assignment from its folder (loo-tutor classroom
    # --assignment keeps it there).
    os.environ[CLASS_FOLDER] = str(book_of_class.folder.resolve())

    template = page_template(args.page)
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (str(TEMPLATES), os.environ.get("JUPYTER_PATH", "")) if p)
    base = getattr(args, "base_url", "/")
    config = traitlets_config.Config(voila_config(
        notebooks, args.host, args.port, token, args.pool_size, args.cull_after, template,
        base))
    # Jupyter Server's request log, which writes [secret] for any token in an address,
    # beside the settings voila_config gives (replacing them would drop those).
    config.Voila.tornado_settings = {
        **config.Voila.tornado_settings,
        "log_function": partial(log_request, record_prometheus_metrics=False)}
    served = read_notebooks(notebooks)
    in_order, toc_problem = listing_of(notebooks, served)

    if args.max_students:
        most, why = args.max_students, "as --max-students says"
    else:
        cores, available = admission.machine()
        most = admission.default_most(cores, available, args.pool_size * len(served))
        why = (f"for {cores} core{'s' if cores != 1 else ''} and "
               f"{available / 1024 ** 3:.1f} GB of memory free; --max-students changes it")
    places = admission.Admission.of(most, served, args.wait_for_place * 60,
                                    args.free_place_after * 60)
    places.student = partial(identity.student_named, book_of_class)
    with contextlib.suppress(ClassBookError):  # page cookies then last this run only
        places.key = book_of_class.setting("page_cookie_key", secrets.token_urlsafe(32)).encode()

    config.ClassroomVoila.class_code = code
    config.ClassroomVoila.book_site = str(book) if serve_book else ""
    app = ClassroomVoila(config=config, class_store=book_of_class, class_admission=places,
                         class_doors=doors, served_notebooks=served, notebook_listing=in_order,
                         class_teachers=teachers)
    app.initialize(argv=[])
    # Voila logs an address of its own (the host's name, the token left out);
    # announce() prints the one to open.
    app.log.addFilter(lambda record: not record.getMessage().startswith("Voilà is running at"))

    def announce() -> None:
        where = "this machine only" if is_loopback(args.host) else "the network (token required)"
        print(f"loo-tutor classroom: {count} notebooks from {args.notebooks or notebooks}, on {where}; "
              f"{args.pool_size} kernel(s) per notebook kept ready"
              + (f", idle kernels stopped after {_duration(args.cull_after)}" if args.cull_after
                 else "")
              + f"; up to {admission.students(most)} at once ({why})"
              + (f"; rule links open the book in {book}" if serve_book else ""), flush=True)
        if toc_problem:
            print(toc_problem, flush=True)
        if args.page == "light" and template != TEMPLATE:
            print(f"note: {SCRIPT_MISSING}; the pages use Voila's own front end", flush=True)
        print(f"The class (names and answers) is kept in {book_of_class.where}"
              + (f", as the class {book_of_class.class_name}"
                 if book_of_class.class_name != DEFAULT_CLASS else ""), flush=True)
        if book_of_class.problem:
            print(_unkept(book_of_class.problem), flush=True)
        if code:
            print(f"Class code for students to type when they join: {code}", flush=True)
        if service is not None:
            where = (f"{service.public_url}loo/teacher" if service.public_url
                     else f"{base}loo/teacher on the Hub's address")
            print(f"Served as the JupyterHub service {service.name}: teachers log in with the "
                  f"Hub; the members of its group {service.group()} teach this class", flush=True)
            if teachers is not None and teachers.students:
                print("Students log in with the Hub and join under their Hub names",
                      flush=True)
            print(f"Teacher's page: {where}", flush=True)
        else:
            teacher = address(args.host, args.port, None, base) + "loo/teacher?token="
            print(f"Teacher's page (keep this address to yourself): "
                  f"{teacher}{book_of_class.teacher_token()}", flush=True)
        print(f"Open {address(args.host, args.port, token, base)} in a browser "
              "(Ctrl-C stops the server).", flush=True)

    ioloop.IOLoop.current().add_callback(_stop_on_ctrl_c)
    ioloop.IOLoop.current().add_callback(announce)
    ioloop.PeriodicCallback(partial(_look_over, book_of_class, [book_of_class.problem]),
                            args.check_class_every * 60_000).start()
    try:
        with contextlib.suppress(KeyboardInterrupt):
            app.start()
    finally:
        book_of_class.close()  # the write-ahead log copied into class.sqlite3
    return 0


def _stop_on_ctrl_c() -> None:
    """Have Ctrl-C stop the running loop, so that the server shuts down in order.

    Left to Python's KeyboardInterrupt, a Ctrl-C that lands while a garbage
    collector's callback runs is printed and then ignored, and the server runs on.
    """
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, loop.stop)


def _unkept(problem: str) -> str:
    """What the server says, at start and when it happens, when the class cannot be kept."""
    return (f"warning: {problem}. The pages work, but no answer is kept and nobody can join "
            "until it is put right; the teacher's page says so too.")


def _look_over(book: ClassStore, said: list[str | None]) -> None:
    """Have ``book`` copy its write-ahead log into its file, and say when it cannot be kept.

    ``said`` holds the problem last said, so that each is said once.
    """
    problem = book.check()
    if problem != said[0]:
        print(_unkept(problem) if problem else
              f"The class can be kept again in {book.where}.", flush=True)
        said[0] = problem
