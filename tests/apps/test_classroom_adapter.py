"""Each reach of the classroom past the public configuration of Voila, Jupyter Server and
Tornado, checked against the installed (pinned) versions, so that an upgrade that changes
any of them fails here, by name. The reaches are listed, with their reasons, in
:mod:`loo_tutor.apps.classroom.adapter`, the one module of the package that makes them;
the numbers below are that list's.

Voila is pinned to 0.5 in requirements.txt and in the install hint; JupyterHub to 6.1.1.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import voila
from jupyter_server import _tz
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels import kernelmanager
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
from tornado import web, websocket
from voila import app, handler, voila_kernel_manager
from voila.tornado import handler as tornado_handler

from loo_tutor.apps.classroom import adapter
from loo_tutor.apps.classroom import server as classroom

from classroom_server import in_a_loop_of_its_own

PACKAGE = Path(adapter.__file__).parent
PRIVATE = ("_pools", "fill_if_needed", "stop_generator", "voila_jinja2_env", "no_cache_paths",
           "_reason", "_jupyter_current_user", "get_content_size", "get_websocket_protocol",
           ".ping_timeout", "init_handlers", "RequestHandler.check_xsrf_cookie",
           "_finished", "HubOAuth", "token_for_code", "get_rendered_notebook", "last_activity",
           "kernelmanager")
"""The names of the reaches, which no module of the classroom but the adapter may write."""


def test_the_pinned_voila_is_the_one_installed() -> None:
    assert voila.__version__.startswith("0.5."), voila.__version__
    assert "voila>=0.5,<0.6" in classroom.INSTALL_HINT


def test_5_the_kept_ready_kernels_are_where_the_ready_line_reads_them() -> None:
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


def test_15_voila_hands_out_kept_ready_kernels_and_the_culler_reads_its_clock_where_we_do() -> None:
    manager = voila_kernel_manager.voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)
    taking = manager.get_rendered_notebook
    assert inspect.iscoroutinefunction(taking)
    assert list(inspect.signature(taking).parameters)[:2] == ["self", "notebook_name"]
    assert "return render_task, renderer.rendered_cache, kernel_id" in inspect.getsource(taking)
    # Voila's culler passes over the kernels kept ready, and no other.
    passing = inspect.getsource(manager.cull_kernel_if_idle)
    assert 'f.result().get("kernel_id") == kernel_id' in passing
    assert "super().cull_kernel_if_idle(kernel_id)" in passing
    # Jupyter Server's culler measures idleness from last_activity by its module's clock.
    culling = inspect.getsource(AsyncMappingKernelManager.cull_kernel_if_idle)
    assert "dt_now = utcnow()" in culling and "dt_now - kernel.last_activity" in culling
    assert "kernel.last_activity = utcnow()" in inspect.getsource(
        AsyncMappingKernelManager.start_watching_activity)
    assert vars(kernelmanager)["utcnow"] is _tz.utcnow
    assert callable(AsyncMappingKernelManager.get_kernel)
    assert callable(AsyncMappingKernelManager.__contains__)


def test_15_a_kernel_taken_from_a_pool_is_idle_from_its_taking_and_others_are_left() -> None:
    class Kernel:
        last_activity = _tz.utcnow() - timedelta(days=1)

    class Pools:
        def __init__(self) -> None:
            self._pools: dict[str, list[object]] = {}
            self.kernel = Kernel()

        async def get_rendered_notebook(self, notebook_name: str) -> tuple[None, list[str], str]:
            return None, [], "taken" if notebook_name == "a.ipynb" else "gone"

        def __contains__(self, kernel_id: str) -> bool:
            return kernel_id == "taken"

        def get_kernel(self, kernel_id: str) -> Kernel:
            assert kernel_id == "taken"
            return self.kernel

    pools = Pools()
    adapter.idle_from_taking(pools)
    assert in_a_loop_of_its_own(pools.get_rendered_notebook("b.ipynb")) == (None, [], "gone")
    assert pools.kernel.last_activity < _tz.utcnow() - timedelta(hours=23)
    before = _tz.utcnow()
    assert in_a_loop_of_its_own(
        pools.get_rendered_notebook(notebook_name="a.ipynb")) == (None, [], "taken")
    assert before <= pools.kernel.last_activity <= _tz.utcnow()
    without = SimpleNamespace(get_rendered_notebook=None)
    adapter.idle_from_taking(without)  # no pools: Voila without preheated kernels
    assert without.get_rendered_notebook is None


def test_1_4_6_7_the_routes_the_server_wraps_are_voila_s() -> None:
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


def test_2_the_server_s_listen_and_settings_are_where_the_limits_go() -> None:
    starting = inspect.getsource(app.Voila.start)
    assert starting.index("self.app = tornado.web.Application(") < starting.index("self.listen()")
    assert "self.app.settings.update(self.tornado_settings)" in starting
    assert "self.app.listen(port, self.ip)" in inspect.getsource(app.Voila.listen)
    assert "max_body_size" not in inspect.getsource(app.Voila.listen)  # ours is not overridden


def test_1_the_server_s_routes_are_made_once_its_application_exists() -> None:
    starting = inspect.getsource(app.Voila.start)
    assert starting.index("self.app = tornado.web.Application(") < starting.index(
        "self.init_handlers()")
    assert "self.app.add_handlers(" in starting
    assert adapter.AdaptedVoila.__mro__[1] is app.Voila


def test_3_stopping_shuts_the_kernels_down_where_a_gone_one_raises_404() -> None:
    assert list(inspect.signature(app.Voila.stop).parameters) == ["self"]
    assert "shutdown" in inspect.getsource(app.Voila.stop)


def test_8_a_static_file_is_sent_through_the_methods_the_packed_route_replaces() -> None:
    getting = inspect.getsource(web.StaticFileHandler.get)
    assert "self.absolute_path = self.validate_absolute_path(" in getting
    assert "self.set_headers()" in getting and "self.get_content_size()" in getting
    assert "self.get_content(self.absolute_path, start, end)" in getting
    assert list(inspect.signature(web.StaticFileHandler.get_cache_time).parameters) == [
        "self", "path", "modified", "mime_type"]
    assert callable(web.StaticFileHandler.set_headers)


def test_9_the_kernel_socket_has_what_the_classroom_socket_wraps() -> None:
    assert issubclass(KernelWebsocketHandler, websocket.WebSocketHandler)
    assert "self.kernel_id = kernel_id" in inspect.getsource(KernelWebsocketHandler.get)
    # The connection is made before Tornado's handshake and dropped when the page closes.
    assert not hasattr(KernelWebsocketHandler, "connection")
    assert "self.connection = self.kernel_websocket_connection_class(" in inspect.getsource(
        KernelWebsocketHandler.pre_get)
    assert "self.connection = None" in inspect.getsource(KernelWebsocketHandler.on_close)
    assert "self.ws_connection = self.get_websocket_protocol()" in inspect.getsource(
        websocket.WebSocketHandler.get)
    for name in ("open", "on_close", "write_message", "get_websocket_protocol", "set_nodelay"):
        assert callable(getattr(websocket.WebSocketHandler, name)), name
    assert isinstance(inspect.getattr_static(websocket.WebSocketHandler, "ping_timeout"),
                      property)
    assert "self.ping_timeout" in inspect.getsource(
        websocket.WebSocketHandler.get_websocket_protocol)
    assert "return self.ws_connection.write_message(" in inspect.getsource(
        websocket.WebSocketHandler.write_message)


def test_10_a_handler_keeps_its_reason_phrase_where_reason_reads_it() -> None:
    assert "self._reason = " in inspect.getsource(web.RequestHandler.set_status)


def test_11_12_jupyter_server_checks_xsrf_past_tornado_and_knows_who_asks_by_then() -> None:
    assert JupyterHandler.check_xsrf_cookie is not web.RequestHandler.check_xsrf_cookie
    assert "self._jupyter_current_user" in inspect.getsource(JupyterHandler)
    assert "super().check_xsrf_cookie()" in inspect.getsource(JupyterHandler.check_xsrf_cookie)


def test_no_module_of_the_classroom_but_the_adapter_names_a_reach() -> None:
    made = (PACKAGE / "adapter.py").read_text(encoding="utf-8")
    assert [name for name in PRIVATE if name not in made] == []
    for module in sorted(PACKAGE.glob("*.py")):
        if module.name == "adapter.py":
            continue
        text = module.read_text(encoding="utf-8")
        assert [name for name in PRIVATE if name in text] == [], module.name


def test_13_a_handler_says_it_has_answered_where_finished_reads_it() -> None:
    finishing = inspect.getsource(web.RequestHandler.finish)
    assert "self._finished = True" in finishing
    assert "self._finished = False" in inspect.getsource(web.RequestHandler.__init__)


def test_14_the_hubs_oauth_has_the_steps_the_classroom_takes_and_its_mixin_patches_xsrf() -> None:
    import jupyterhub
    from jupyterhub.services import auth

    assert jupyterhub.__version__ == "6.1.1", jupyterhub.__version__
    hub = auth.HubOAuth
    for name, parameters in {
            "generate_pkce_code_challenge": ["self", "method"],
            "set_state_cookie": ["self", "handler", "next_url", "code_verifier"],
            "get_state_cookie_name": ["self", "state_id"],
            "clear_oauth_state_cookies": ["self", "handler"],
            "get_next_url": ["self", "state_id"],
            "get_code_verifier": ["self", "state_id"],
            "clear_oauth_state": ["self", "state_id"],
            "token_for_code": ["self", "code", "code_verifier", "sync"],
            "user_for_token": ["self", "token", "use_cache", "session_id", "sync"]}.items():
        assert list(inspect.signature(getattr(hub, name)).parameters) == parameters, name
    assert isinstance(hub.login_url, property) or "login_url" in hub.class_traits()
    # The callback handler takes the same steps, in the same order.
    callback = inspect.getsource(auth.HubOAuthCallbackHandler.get)
    steps = ["get_state_cookie_name(", "get_secure_cookie(", "clear_oauth_state_cookies(",
             "get_next_url(", "get_code_verifier(", "clear_oauth_state(", "token_for_code("]
    at = [callback.index(step) for step in steps]
    assert at == sorted(at), steps
    # Why the classroom does not use get_user on its handlers: it patches their XSRF check.
    assert "self._patch_xsrf(handler)" in inspect.getsource(hub._get_user)
    assert "cls.check_xsrf_cookie = " in inspect.getsource(hub._patch_xsrf)
    # The user model the Hub gives for any token holds the user's groups.
    from jupyterhub import scopes

    assert "read:users:groups!user" in scopes.identify_scopes()
