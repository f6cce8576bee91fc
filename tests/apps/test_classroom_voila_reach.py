"""What the classroom server takes from Voila beyond its configuration, checked against the
installed Voila, so that an upgrade that changes any of it fails here, by name.

Public configuration does most of the work (``voila_config``: the template,
the kept-ready kernels, the kernel spec manager that starts the classroom's
kernels, culling, the notary). What stays outside it, each with the reason:

1. The ``Kernel ready for NOTEBOOK`` line (``_says_when_ready``): Voila says
   nothing when a kernel kept ready has run its notebook, and offers no hook
   there. The server reads the kernel manager's ``_pools`` (per notebook, a
   list of tasks resolving to ``{"task", "renderer", "kernel_id"}``), wraps
   ``fill_if_needed(delay, notebook_name, ...)`` on the instance, and reads
   the renderer's ``stop_generator``, which Voila sets when a page takes the
   kernel. The same tasks give the count of students for the maximum
   (``--max-students``): the kernels running but those ready in the pools
   (a done task's ``kernel_id``), and those a page took from its pool
   while still starting (a task not done and no longer in its pool), which
   the kernel manager does not list yet. Kernels running less the pools'
   sizes would miss those, and count a page's kernel started outside the
   pools as none.
2. ``Voila.init_handlers``, overridden to wrap Voila's routes
   (``VoilaHandler`` for the notebook pages: the XSRF cookie and the full
   class; Tornado's websocket and static file handlers); and the
   ``no_cache_paths`` argument Voila gives its labextensions route.
3. ``voila_jinja2_env`` in the server's settings, where the list page's
   template finds ``loo_listing``.
4. ``Voila.listen``, overridden to pass ``max_body_size`` to the Tornado
   application's ``listen`` (``self.app``, made in ``start`` just before), so
   that a request's body past the limit is refused before it is read; and
   ``Voila.tornado_settings``, where Jupyter Server's request log (which hides
   tokens in addresses) is given as Tornado's ``log_function``.
5. The templates folder is given to Voila through ``JUPYTER_PATH``, Jupyter's
   public way to add a data folder, which Voila reads when the application
   is set up (``collect_template_paths``); it is set for the server's
   process, so its kernels inherit it (they do not read it).

Voila is pinned to 0.5 in requirements.txt and in the install hint.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys

import voila
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from voila import app, handler, voila_kernel_manager
from voila.tornado import handler as tornado_handler

from loo_tutor.apps.classroom import server as classroom


def test_the_pinned_voila_is_the_one_installed() -> None:
    assert voila.__version__.startswith("0.5."), voila.__version__
    assert "voila>=0.5,<0.6" in classroom.INSTALL_HINT


def test_the_kept_ready_kernels_are_where_the_ready_line_reads_them() -> None:
    manager = voila_kernel_manager.voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)
    fill = inspect.signature(manager.fill_if_needed)
    assert list(fill.parameters)[:3] == ["self", "delay", "notebook_name"]
    assert "self._pools: TypeDict[str, List[TypeDict]] = {}" in inspect.getsource(manager.__init__)
    filling = inspect.getsource(manager.fill_if_needed)
    assert "pool.append(task)" in filling and "self._initialize(notebook_name" in filling
    assert "task = loop.create_task(" in filling  # a task: done once its kernel has started
    assert "super().start_kernel(" in inspect.getsource(manager._initialize)
    initialize = inspect.getsource(manager._initialize)
    assert 'return {"task": task, "renderer": renderer, "kernel_id": kernel_id}' in initialize
    taking = inspect.getsource(manager.get_rendered_notebook)
    assert "self._pools[notebook_name].pop(0)" in taking
    assert "renderer.stop_generator = True" in taking
    assert "self.fill_if_needed(" in taking  # the refill goes through the wrapped method


def test_the_routes_the_server_wraps_are_voila_s() -> None:
    assert callable(app.Voila.init_handlers)
    routes = inspect.getsource(app.Voila.init_handlers)
    assert "TornadoVoilaHandler" in routes and "no_cache_paths" in routes
    assert issubclass(tornado_handler.TornadoVoilaHandler, handler.VoilaHandler)
    assert inspect.iscoroutinefunction(inspect.unwrap(tornado_handler.TornadoVoilaHandler.get))
    assert "voila_jinja2_env=env" in inspect.getsource(app.Voila.init_settings)


def test_the_templates_are_found_through_jupyter_path() -> None:
    found = subprocess.run(
        [sys.executable, "-c",
         "from voila.paths import collect_template_paths as c; "
         f"print(c(['voila', 'nbconvert'], {classroom.TEMPLATE!r}, prune=True)[0])"],
        env=dict(os.environ, JUPYTER_PATH=str(classroom.TEMPLATES)),
        capture_output=True, text=True, check=True)
    assert found.stdout.strip().startswith(str(classroom.TEMPLATES))


def test_the_server_s_listen_and_settings_are_where_the_limits_go() -> None:
    starting = inspect.getsource(app.Voila.start)
    assert starting.index("self.app = tornado.web.Application(") < starting.index("self.listen()")
    assert "self.app.settings.update(self.tornado_settings)" in starting
    assert "self.app.listen(port, self.ip)" in inspect.getsource(app.Voila.listen)
