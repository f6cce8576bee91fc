// The teacher's page of the classroom: asks the server for the class every
// second and draws it in place, so the page stays current without a reload.
// The teacher's token travels in its HttpOnly cookie, never through here.
(function () {
  'use strict';
  var EVERY_MS = 1000;
  var place = document.getElementById('loo-class');
  var state = document.querySelector('.loo-state');
  var shown = place ? place.innerHTML : '';

  function say(text, offline) {
    if (!state) return;
    if (state.textContent !== text) state.textContent = text;
    if (offline) state.setAttribute('data-loo-offline', '');
    else state.removeAttribute('data-loo-offline');
  }

  function next() { setTimeout(refresh, EVERY_MS); }

  function refresh() {
    fetch('/loo/teacher/class', { credentials: 'same-origin', cache: 'no-store' })
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

  if (place) next();
}());
