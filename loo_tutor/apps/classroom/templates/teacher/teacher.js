// The teacher's page of the classroom: asks the server for the class every
// second and draws it in place, so the page stays current without a reload.
// The teacher's token travels in its HttpOnly cookie, never through here.
// Every time is shown in the teacher's own time zone (the server keeps UTC).
// The projector view (its button, or ?view=projector) shows the class in
// large type with the students' names as initials or hidden; this browser
// remembers the choice. The server's prefix (its --base-url, as behind
// JupyterHub's proxy) is the page's data-loo-base.
(function () {
  'use strict';
  var EVERY_MS = 1000;
  var place = document.getElementById('loo-class');
  var state = document.querySelector('.loo-state');
  var shown = place ? place.innerHTML : '';
  var VIEW_KEY = 'loo-teacher-view';
  var given = document.body.getAttribute('data-loo-base') || '/';
  var BASE = given.charAt(0) === '/' && given.slice(-1) === '/' ? given : '/';

  function two(n) { return (n < 10 ? '0' : '') + n; }

  function localTimes() {
    var zone = '';
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ''; } catch (e) { zone = ''; }
    place.querySelectorAll('time[datetime]').forEach(function (time) {
      var when = new Date(time.getAttribute('datetime'));
      if (isNaN(when.getTime())) return;
      time.textContent = when.getFullYear() + '-' + two(when.getMonth() + 1) + '-'
        + two(when.getDate()) + ' ' + two(when.getHours()) + ':' + two(when.getMinutes()) + ':'
        + two(when.getSeconds());
    });
    place.querySelectorAll('.loo-zone').forEach(function (name) {
      name.textContent = zone || 'local time';
    });
  }

  function remembered() {
    try { return JSON.parse(localStorage.getItem(VIEW_KEY) || '{}') || {}; } catch (e) { return {}; }
  }

  function view(projector, names) {
    var button = document.querySelector('.loo-projector-button');
    var choice = document.querySelector('.loo-names');
    document.body.classList.toggle('loo-projector', projector);
    document.body.setAttribute('data-loo-names', names);
    if (button) button.setAttribute('aria-pressed', String(projector));
    if (choice) choice.value = names;
    try { localStorage.setItem(VIEW_KEY, JSON.stringify({ projector: projector, names: names })); } catch (e) { /* kept for this page only */ }
  }

  function startView() {
    var kept = remembered();
    var asked = new URLSearchParams(location.search).get('view') === 'projector';
    var names = ['initials', 'hidden', 'full'].indexOf(kept.names) >= 0 ? kept.names : 'initials';
    view(asked || kept.projector === true, names);
    var button = document.querySelector('.loo-projector-button');
    var choice = document.querySelector('.loo-names');
    if (button) {
      button.addEventListener('click', function () {
        view(!document.body.classList.contains('loo-projector'), choice ? choice.value : names);
      });
    }
    if (choice) {
      choice.addEventListener('change', function () {
        view(document.body.classList.contains('loo-projector'), choice.value);
      });
    }
  }

  function say(text, offline) {
    if (!state) return;
    if (state.textContent !== text) state.textContent = text;
    if (offline) state.setAttribute('data-loo-offline', '');
    else state.removeAttribute('data-loo-offline');
  }

  function next() { setTimeout(refresh, EVERY_MS); }

  function refresh() {
    fetch(BASE + 'loo/teacher/class', { credentials: 'same-origin', cache: 'no-store' })
      .then(function (reply) {
        if (reply.status === 403) {
          say('The server no longer knows this page as the teacher\'s: open the teacher\'s '
            + 'address it printed.', true);
          return null;
        }
        if (!reply.ok) throw new Error(String(reply.status));
        return reply.text();
      })
      .then(function (text) {
        if (text !== null && text !== undefined) {
          if (text !== shown) {
            place.innerHTML = text;
            shown = text;
            localTimes();
          }
          say('Updated every second; last at ' + new Date().toLocaleTimeString() + '.', false);
        }
        next();
      })
      .catch(function () {
        say('The classroom server is not answering. Trying again every second; what is '
          + 'shown is the class as it was.', true);
        next();
      });
  }

  if (place) {
    localTimes();
    startView();
    next();
  }
}());
