"""A school behind JupyterHub: the shipped configuration, a real Hub and proxy, PostgreSQL,
and two classes served as the Hub's services (``loo-tutor classroom --hub``).

The Hub (:mod:`hub_server`, with ``deploy/jupyterhub/jupyterhub_config.py``)
starts the classrooms of classes ``9a`` and ``9b``, both kept in one
PostgreSQL database given in their environment. Ann teaches 9a (the Hub's
group ``teachers-9a``), Bob 9b; Hal is the Hub's admin and teaches neither.
Two students join by name through the proxy, one per class, and each
answers an exercise in Chromium; in class 9c (``--students hub``) Kim logs in
with the Hub instead and is joined under her Hub name. Ann and Bob log in on the Hub's own login
page: each teacher's page shows their own class's student and not the
other's; Ann is refused 9b's teacher's page by the Hub, and Hal, whom the
Hub lets through as an admin, is refused by the classroom, which says why.
The teacher's page served through the Hub passes axe's checks.
"""

from __future__ import annotations

import re
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from loo_tutor.apps.classroom.hub import DATA_VARIABLE, service_from
from loo_tutor.apps.classroom.store import ClassBook
from loo_tutor.engine.cards import card_text
from loo_tutor.teaching.exercises import Kind, LegalCards, make

from browser_support import axe_findings, in_browser
from classroom_server import check_cards
from hub_server import (
    ADMIN_PASSWORD,
    CLASSROOM,
    PASSWORD,
    SHIPPED_CONFIG,
    Hub,
    hub_serving,
    log_in,
    wait_for_class,
)
from postgres_server import Postgres, new_database

CLASSES = {"9a": {"teachers": ["ann"]}, "9b": {"teachers": ["bob"]},
           "9c": {"teachers": ["ann"], "students": ["kim"]}}
"""Two classes whose students join by name, and one whose students log in with the Hub."""
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


def test_a_student_the_hub_vouches_for_joins_under_that_name_from_any_browser(
        tmp_path: Path) -> None:
    book = ClassBook(tmp_path)
    try:
        first, name = book.join_as("kim")
        again, same = book.join_as(" kim ")
        assert first and again and first != again and name == same == "kim"
        assert book.student_of(first) == book.student_of(again)  # one student, two browsers
        # A name that only looks like kim's (a Greek capital kappa) is not taken for hers.
        assert book.join_as("\u039aim") == (
            None, "Another student of this class has a name that looks like \u039aim: "
                  "ask your teacher.")
        assert book.join_as("")[0] is None
    finally:
        book.close()


def _shipped(tmp_path: Path, classes: str, monkeypatch: pytest.MonkeyPatch) -> Config:
    """The shipped configuration, as JupyterHub reads it, with ``classes`` as classes.toml."""
    (tmp_path / "classes.toml").write_text(classes)
    monkeypatch.setenv("LOO_TUTOR_CLASSES", str(tmp_path / "classes.toml"))
    monkeypatch.delenv(DATA_VARIABLE, raising=False)
    loader = PyFileConfigLoader(SHIPPED_CONFIG.name, path=str(SHIPPED_CONFIG.parent))
    config: Config = loader.load_config()
    return config


def test_the_shipped_configuration_makes_a_service_group_and_role_per_class(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _shipped(tmp_path, SHIPPED_CONFIG.with_name("classes.toml").read_text(),
                      monkeypatch)
    services = config.JupyterHub.services
    assert [s["name"] for s in services] == ["9a", "9b"]
    assert services[0]["command"] == ["loo-tutor", "classroom", "--hub", "--class-name", "9a"]
    assert services[0]["url"] == "http://127.0.0.1:8101" and services[1]["url"].endswith(":8102")
    assert services[0]["environment"] == {DATA_VARIABLE: "postgresql://loo@127.0.0.1/school"}
    assert config.JupyterHub.load_groups == {"teachers-9a": {"users": ["ann"]},
                                             "teachers-9b": {"users": ["bob"]}}
    assert config.JupyterHub.load_roles[0] == {
        "name": "teachers-9a", "description": "The teachers of class 9a: they may log in to it",
        "scopes": ["access:services!service=9a"], "groups": ["teachers-9a"]}
    token = tmp_path / "10c.token"
    token.write_text("s3cret\n")
    config = _shipped(tmp_path, f"""[school]
database = "postgresql://loo@db/school"
[classes."10c"]
teachers = ["cem"]
students = ["dia"]
url = "http://10.0.0.12:8101"
api_token_file = "{token}"
""", monkeypatch)
    assert config.JupyterHub.services == [{
        "name": "10c", "display": True, "oauth_no_confirm": True, "timeout": 10,
        "url": "http://10.0.0.12:8101", "api_token": "s3cret"}]
    assert config.JupyterHub.load_groups["students-10c"] == {"users": ["dia"]}


@pytest.mark.parametrize(("classes", "said"), [
    ("[school]\n", "no class: add a table [classes.NAME] for each class"),
    ('[classes."9A"]\n', "'9A' is not a class name"),
    ('[classes."9a"]\nteacher = ["ann"]\n', "class 9a: unknown setting 'teacher'"),
    ('[classes."9a"]\nteachers = "ann"\n', "class 9a: teachers is a list of Hub user names"),
    ('[classes."9a"]\nurl = "http://10.0.0.12:8101"\n', "has a url (another machine) but no"),
])
def test_a_bad_classes_file_stops_the_hub_with_one_line(
        classes: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit) as stopped:
        _shipped(tmp_path, classes, monkeypatch)
    assert said in str(stopped.value) and "\n" not in str(stopped.value)


def test_hub_without_jupyterhub_installed_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from loo_tutor.apps.cli import main

    for name, value in {"JUPYTERHUB_SERVICE_NAME": "9a",
                        "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:8101",
                        "JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api",
                        "JUPYTERHUB_API_TOKEN": "secret"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setitem(sys.modules, "jupyterhub.services.auth", None)  # as if not installed
    assert main(["classroom", "--hub"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("error: --hub needs JupyterHub's Python package; install it "
                                 "with: pip install 'loo-tutor[hub]'\n")
    assert main(["classroom", "--students", "hub"]) == 2
    assert capsys.readouterr().err.startswith("error: --students hub needs --hub")


# -- a school: the Hub, its proxy, PostgreSQL and its classes ---------------------------------


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
    assert len(commands) == 3 and not any("postgresql" in line for line in commands), commands
    assert "Students log in with the Hub and join under their Hub names" in log
    assert sum("--students', 'hub'" in line for line in commands) == 1, commands


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
    # In 9c the students log in with the Hub: joining starts with the Hub's login.
    status, where = _status(school.class_url("9c") + "loo/join")
    assert status == 302 and where.startswith("/hub/api/oauth2/authorize?"), where
    assert "client_id=service-9c" in where


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
        # The teacher's form works through the Hub (its XSRF token, the Hub's login).
        ann.fill("#loo-release-name", "Ida")
        ann.locator("button", has_text="Release the name").click()
        ann.locator(".loo-said").wait_for(timeout=30_000)
        seen["released"] = ann.locator(".loo-said").inner_text()
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
    assert seen["released"].startswith("Ida can join again from another computer")
    status, text = seen["ann at 9b"]
    assert status == 403 and "You do not have permission to access" in text, text[:300]
    assert "Jon" not in text
    assert seen["hal's status"] == 403
    assert "hal is logged in to the school's JupyterHub but is not a teacher of class 9a" \
        in seen["hal at 9a"] and "teachers-9a" in seen["hal at 9a"]
    assert "Ida" not in seen["hal at 9a"]
    assert not findings, findings


def test_a_student_of_a_hub_class_logs_in_with_the_hub_and_joins_under_that_name(
        school: Hub) -> None:
    assert isinstance(EXERCISE, LegalCards)
    legal = [card_text(card) for card in EXERCISE.legal()]
    seen: dict[str, Any] = {}

    def lesson(browser: Any) -> None:
        page = browser.new_context().new_page()
        page.goto(school.class_url("9c") + APP)
        page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                               timeout=180_000)
        page.locator(".loo-class-bar a.loo-join").click()
        page.locator("input#username_input").wait_for(timeout=30_000)  # the Hub's login
        seen["login page"] = page.url
        page.locator("input#username_input").fill("kim")
        page.locator("input#password_input").fill(PASSWORD)
        page.locator("#login_submit").click()
        page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                               timeout=180_000)
        page.locator(".loo-class-bar", has_text="Joined as kim").wait_for(timeout=30_000)
        seen["back at"] = page.url
        check_cards(page, legal)
        ann = _teacher(browser, school, "ann", "9c")
        ann.locator('tr[data-loo-student="kim"]').filter(has_text="1 / 1").wait_for(
            timeout=30_000)
        seen["ann's 9c"] = ann.locator("main").inner_text()
        # Jon, not a student of 9c, is refused by the Hub.
        jon = browser.new_context().new_page()
        log_in(jon, school, "jon", school.class_url("9c") + "loo/join")
        seen["jon at 9c"] = jon.locator("body").inner_text()

    in_browser(lesson)
    assert seen["login page"].startswith(school.url + "hub/login?next=")
    assert seen["back at"] == school.class_url("9c") + APP
    assert "Class 9c" in seen["ann's 9c"] and "kim" in seen["ann's 9c"]
    assert "Ida" not in seen["ann's 9c"] and "Jon" not in seen["ann's 9c"]
    assert "You do not have permission to access" in seen["jon at 9c"]
