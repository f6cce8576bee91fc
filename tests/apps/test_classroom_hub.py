"""A school behind JupyterHub: the shipped configuration, a real Hub and proxy, PostgreSQL,
and two classes served as the Hub's services (``loo-tutor classroom --hub``).

The Hub (:mod:`hub_server`, with ``deploy/jupyterhub/jupyterhub_config.py``)
starts the classrooms of classes ``9a`` and ``9b``, both kept in one
PostgreSQL database given in their environment. Ann teaches 9a (the Hub's
group ``teachers-9a``), Bob 9b; Hal is the Hub's admin and teaches neither.
Two students join by name through the proxy, one per class, and each
answers an exercise in Chromium. Ann and Bob log in on the Hub's own login
page: each teacher's page shows their own class's student and not the
other's; Ann is refused 9b's teacher's page by the Hub, and Hal, whom the
Hub lets through as an admin, is refused by the classroom, which says why.
The teacher's page served through the Hub passes axe's checks.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from loo_tutor.apps.classroom.hub import DATA_VARIABLE, service_from
from loo_tutor.engine.cards import card_text
from loo_tutor.teaching.exercises import Kind, LegalCards, make

from browser_support import axe_findings, in_browser
from classroom_server import check_cards
from hub_server import ADMIN_PASSWORD, CLASSROOM, Hub, hub_serving, log_in, wait_for_class
from postgres_server import Postgres, new_database

CLASSES = {"9a": {"teachers": ["ann"]}, "9b": {"teachers": ["bob"]}}
EXERCISE = make(Kind.LEGAL_CARDS, 2024)  # the exercises notebook's ExerciseWidget(1, seed=2024)
APP = "voila/render/exercises.ipynb"


# -- the service's environment, read without a Hub ------------------------------------------


def test_the_services_environment_gives_the_address_prefix_class_and_store() -> None:
    found = service_from({"JUPYTERHUB_SERVICE_NAME": "9a",
                          "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:8101",
                          "JUPYTERHUB_SERVICE_PREFIX": "/services/9a/",
                          "JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api",
                          "JUPYTERHUB_API_TOKEN": "secret",
                          DATA_VARIABLE: "postgresql://loo@db/school"})
    assert not isinstance(found, str)
    assert (found.name, found.host, found.port, found.prefix) == (
        "9a", "127.0.0.1", 8101, "/services/9a/")
    assert found.group() == "teachers-9a"
    assert found.client_id == "service-9a"  # as the Hub names the service's OAuth client
    assert found.callback == "/services/9a/oauth_callback"
    assert found.data == "postgresql://loo@db/school"


@pytest.mark.parametrize(("environ", "said"), [
    ({}, "JUPYTERHUB_SERVICE_NAME, JUPYTERHUB_SERVICE_URL, JUPYTERHUB_API_URL, "
         "JUPYTERHUB_API_TOKEN are not set"),
    ({"JUPYTERHUB_SERVICE_NAME": "9a", "JUPYTERHUB_SERVICE_URL": "127.0.0.1:8101",
      "JUPYTERHUB_API_URL": "http://h/hub/api", "JUPYTERHUB_API_TOKEN": "t"},
     "not an address such as http://127.0.0.1:8101"),
    ({"JUPYTERHUB_SERVICE_NAME": "9a", "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:8101",
      "JUPYTERHUB_SERVICE_PREFIX": "/services/../", "JUPYTERHUB_API_URL": "http://h/hub/api",
      "JUPYTERHUB_API_TOKEN": "t"}, "JUPYTERHUB_SERVICE_PREFIX: "),
])
def test_a_missing_or_bad_environment_is_one_line(environ: dict[str, str], said: str) -> None:
    found = service_from(environ)
    assert isinstance(found, str) and said in found and "\n" not in found


def test_hub_without_the_hubs_environment_is_one_line_and_exit_status_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from loo_tutor.apps.cli import main

    for name in ("JUPYTERHUB_SERVICE_NAME", "JUPYTERHUB_SERVICE_URL", "JUPYTERHUB_API_URL",
                 "JUPYTERHUB_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    assert main(["classroom", "--hub"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: --hub needs the environment JupyterHub gives")
    assert err.count("\n") == 1 and "Traceback" not in err


# -- a school: the Hub, its proxy, PostgreSQL and two classes ---------------------------------


@pytest.fixture(scope="module")
def school(postgres_server: Postgres) -> Iterator[Hub]:
    with hub_serving(CLASSES, database=new_database(postgres_server),
                     command=[*CLASSROOM, "--pool-size", "0"], admins=["hal"]) as hub:
        for name in CLASSES:
            wait_for_class(hub, name)
        yield hub


def _status(url: str) -> tuple[int, str]:
    """The status of ``url``, not following a redirect, and where it sends the browser."""

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    try:
        with urllib.request.build_opener(Stay()).open(url, timeout=30) as reply:
            return int(reply.status), ""
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Location", "")


def test_the_hub_starts_each_class_with_its_store_out_of_its_command_line(school: Hub) -> None:
    log = "".join(school.log)
    for name in CLASSES:
        assert f"Served as the JupyterHub service {name}: teachers log in with the Hub; " \
               f"the members of its group teachers-{name} teach this class" in log
        printed = re.findall(rf"Teacher's page: (\S*/services/{name}/loo/teacher\S*)", log)
        assert printed == [f"/services/{name}/loo/teacher"], printed
        assert f"as the class {name}" in log
    assert "token=" not in "".join(line for line in school.log if "Teacher's page" in line)
    assert "postgresql://" in log  # where each class is kept, as it says at start...
    commands = [line for line in school.log if "Starting service" in line]
    assert len(commands) == 2 and not any("postgresql" in line for line in commands), commands


def test_the_teachers_routes_ask_the_hub_and_the_students_do_not(school: Hub) -> None:
    base = school.class_url("9a")
    status, where = _status(base + "loo/teacher")
    assert status == 302 and where.startswith("/hub/api/oauth2/authorize?"), where
    assert "client_id=service-9a" in where and "code_challenge=" in where
    for route in ("loo/teacher/class", "loo/teacher/class.csv"):
        assert _status(base + route)[0] == 403
    # A teacher's token in the address does nothing under --hub.
    assert _status(base + "loo/teacher?token=anything")[0] == 302
    # The end of the login, opened without a login, is refused in one line.
    assert _status(base + "oauth_callback?code=x&state=y")[0] == 400
    assert _status(base + "loo/join")[0] == 200
    assert _status(base + "loo/me")[0] == 200


def _student(browser: Any, base: str, name: str, cards: list[str]) -> Any:
    """A student opening the class's exercises through the proxy, joining as ``name`` and
    checking ``cards`` in Exercise 1."""
    page = browser.new_context().new_page()
    page.goto(base + APP)
    page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                           timeout=180_000)
    page.locator(".loo-class-bar a.loo-join").click()
    page.fill("#loo-name", name)
    page.locator("button", has_text="Join").click()
    page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                           timeout=180_000)
    page.locator(".loo-class-bar", has_text=f"Joined as {name}").wait_for(timeout=30_000)
    check_cards(page, cards)
    return page


def _teacher(browser: Any, hub: Hub, user: str, name: str, password: str | None = None) -> Any:
    """``user`` opening class ``name``'s teacher's page and logging in with the Hub there."""
    page = browser.new_context().new_page()
    log_in(page, hub, user, hub.class_url(name) + "loo/teacher",
           **({"password": password} if password else {}))
    return page


def test_each_teacher_sees_their_own_class_and_no_other(school: Hub) -> None:
    assert isinstance(EXERCISE, LegalCards)
    legal = [card_text(card) for card in EXERCISE.legal()]
    seen: dict[str, Any] = {}
    findings: list[str] = []

    def lesson(browser: Any) -> None:
        _student(browser, school.class_url("9a"), "Ida", legal)
        _student(browser, school.class_url("9b"), "Jon", legal[:1])
        ann = _teacher(browser, school, "ann", "9a")
        ann.locator('tr[data-loo-student="Ida"]').filter(has_text="1 / 1").wait_for(
            timeout=30_000)
        seen["ann's page"] = ann.url
        seen["ann's class"] = ann.locator("main").inner_text()
        seen["ann's cookies"] = {c["name"]: c["path"] for c in ann.context.cookies()}
        findings.extend(axe_findings(ann))
        bob = _teacher(browser, school, "bob", "9b")
        bob.locator('tr[data-loo-student="Jon"]').wait_for(timeout=30_000)
        seen["bob's class"] = bob.locator("main").inner_text()
        # Ann, logged in with the Hub, opens 9b's teacher's page: the Hub refuses her.
        refused = ann.goto(school.class_url("9b") + "loo/teacher")
        seen["ann at 9b"] = (refused.status if refused else 0, ann.locator("body").inner_text())
        # Hal, an admin, whom the Hub lets through, is refused by the class itself.
        hal = _teacher(browser, school, "hal", "9a", ADMIN_PASSWORD)
        seen["hal at 9a"] = hal.locator("body").inner_text()
        seen["hal's status"] = hal.evaluate(
            "() => performance.getEntriesByType('navigation')[0].responseStatus")

    in_browser(lesson)
    assert seen["ann's page"] == school.class_url("9a") + "loo/teacher"
    assert "Class 9a: you are logged in with the school's Hub as ann." in seen["ann's class"]
    assert "Ida" in seen["ann's class"] and "Jon" not in seen["ann's class"]
    assert "1 student," in seen["ann's class"]
    assert "Class 9b: you are logged in with the school's Hub as bob." in seen["bob's class"]
    assert "Jon" in seen["bob's class"] and "Ida" not in seen["bob's class"]
    assert seen["ann's cookies"]["loo-hub-teacher"] == "/services/9a/loo/teacher"
    status, text = seen["ann at 9b"]
    assert status == 403 and "You do not have permission to access" in text, text[:300]
    assert "Jon" not in text
    assert seen["hal's status"] == 403
    assert "hal is logged in to the school's JupyterHub but is not a teacher of class 9a" \
        in seen["hal at 9a"] and "teachers-9a" in seen["hal at 9a"]
    assert "Ida" not in seen["hal at 9a"]
    assert not findings, findings
