// A live book page (built into _static/live/live.js): the widget outputs of
// the book's own page come alive in place.
//
// The page shows its widgets at once as saved when the book was built (HTML
// copies written by _ext/loo_snapshot.py, before each widget output's
// placeholder). An inline script at the top of <head> (_ext/loo_live_early.js)
// has already started the page's Web Worker, where Python starts (afresh on
// a reader's first two visits, from the memory the build saved on later ones:
// live-worker.js), and keeps the messages that come before this script runs.
// This script shows a status line while Python starts, makes the widgets'
// models from the page's saved widget state (the same widgets, with the same
// ids, as Python makes or holds) and draws each widget output's widget in
// place of its saved copy: the reader can use them at once, and what they
// press waits in the worker until Python is ready.
// document.documentElement.dataset.looLive says how far it got: "starting",
// then "ready" once every widget on the page is live, or "failed"; "stopped"
// if Python stops after that (its worker crashed), the widgets then left as
// they were, readable but inert. dataset.looLiveStart says how Python
// started ("saved": from the saved memory, or "fresh"), and
// dataset.looLiveSettled is set once the worker has nothing more to fetch
// (on a second visit, it fetches the memory it keeps for the next once told the page is live).
// If Python
// cannot start (a page opened from a file, a browser without WebAssembly),
// the saved copies stay, drawn again by the widget manager of the saved page
// (the addresses in data-saved-widgets of this script's tag) so that their
// sliders and menus work without Python. Either way, the exercises solved
// are kept in the browser (progress.js), and once live the work kept from
// earlier visits is given back to the page's score line (progress.js, giveBack).
import '@jupyter-widgets/controls/css/widgets.css';
import 'font-awesome/css/font-awesome.css';
import { WidgetManager } from './manager.js';
import { startProgress } from './progress.js';
import { WorkerConnection } from './worker.js';

const VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';
const STATE = 'script[type="application/vnd.jupyter.widget-state+json"]';
const SNAPSHOT = 'loo-snapshot';
const script = document.currentScript;
const savedWidgets = script && script.dataset.savedWidgets ? script.dataset.savedWidgets.split(' ') : [];

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function signal(state) {
  document.documentElement.dataset.looLive = state;
}

// Marks on the page's performance timeline (ms from navigation start), which
// the browser benchmark reads to say where an opening spends its time.
function mark(name) {
  performance.mark(`loo-live:${name}`);
}

// The widget manager of the saved page, for a page that stays a saved copy:
// its scripts load one after the other, and it draws the widgets in place
// of the HTML copies (which stay if it cannot be loaded).
function drawSavedWidgets() {
  if (!savedWidgets.length) return;
  savedWidgets.reduce((before, url) => before.then(() => new Promise((done, failed) => {
    const tag = document.createElement('script');
    tag.src = url;
    tag.onload = done;
    tag.onerror = failed;
    document.head.append(tag);
  })), Promise.resolve()).then(() => {
    document.querySelectorAll(`.${SNAPSHOT}`).forEach((copy) => copy.remove());
  }, () => { /* the HTML copies stay */ });
}

function statusLine(article) {
  const status = el('div', 'loo-live-status');
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  const text = el('span', 'loo-live-text');
  const note = el('span', 'loo-live-note');
  const bar = el('progress', 'loo-live-progress');
  bar.setAttribute('aria-hidden', 'true');
  bar.max = 1;
  bar.value = 0; // a progress bar with no value is animated: redrawn every frame
  status.append(text, bar, note);
  article.prepend(status);
  return {
    say(main, detail, kind) {
      text.textContent = main;
      note.textContent = detail || '';
      if (kind) {
        status.classList.remove('loo-live-ready', 'loo-live-off');
        status.classList.add(kind);
        bar.remove();
      }
    },
    progress(done, total) {
      bar.max = total;
      bar.value = done;
    },
  };
}

const SAVED_COPY = 'Until it is ready, the widgets below are a saved copy and their buttons do nothing.';
const USABLE = 'The widgets below work already: what you press is answered as soon as Python is ready.';

function start() {
  const article = document.querySelector('article.bd-article')
    || document.querySelector('main article') || document.querySelector("[role='main']");
  const places = [...document.querySelectorAll(VIEW)];
  const live = window.looLive;
  if (!article || !places.length) return;
  const status = statusLine(article);

  const cannot = (detail) => {
    status.say('These widgets are a saved copy.', detail, 'loo-live-off');
    signal('failed');
    drawSavedWidgets();
  };
  if (location.protocol === 'file:') {
    cannot('Serve the site (./dev site) to run them live in your browser.');
    return;
  }
  if (!live) {
    cannot('This browser cannot run Python.');
    return;
  }

  signal('starting');
  let waiting = SAVED_COPY;
  status.say('Starting Python in your browser…', waiting);
  const connection = new WorkerConnection(live.worker);
  const manager = new WidgetManager(connection);
  let failed = false;
  let running = false;

  // Python stopped after the widgets went live (its worker crashed or ran
  // out of memory): the widgets stay drawn as they were, readable, but
  // nothing answers their controls any more, so they are made inert.
  const stopped = (reason) => {
    if (failed) return;
    failed = true;
    hosts.forEach((host) => { host.inert = true; });
    status.say('Python stopped in this browser: the widgets below show where they were but no '
      + 'longer respond. Reload the page to start again.', reason, 'loo-live-off');
    signal('stopped');
  };

  // Each widget output's widget, drawn hidden after its saved copy, then
  // shown in the copy's place while Python starts: what the reader presses
  // is kept by the worker until Python is ready.
  const hosts = places.map((place) => {
    const host = el('div', 'loo-live-widget');
    host.hidden = true;
    place.before(host);
    return host;
  });
  const copyOf = (host) => {
    const copy = host.previousElementSibling;
    return copy && copy.classList.contains(SNAPSHOT) ? copy : null;
  };
  const show = (live) => hosts.forEach((host) => {
    host.hidden = !live;
    const copy = copyOf(host);
    if (copy) copy.hidden = live;
  });

  const giveUp = (reason) => {
    if (failed) return;
    failed = true;
    show(false);
    status.say('Python could not start in this browser, so the widgets below stay a saved copy.',
      reason, 'loo-live-off');
    signal('failed');
  };

  const drawn = Promise.resolve()
    .then(() => manager.restore(JSON.parse(document.querySelector(STATE).textContent)))
    .then(() => Promise.allSettled(places.map((place, i) => (
      manager.draw(JSON.parse(place.textContent).model_id, hosts[i])))))
    .then((results) => {
      const refused = results.filter((r) => r.status === 'rejected');
      refused.forEach((r) => console.error('a widget could not be drawn:', r.reason));
      if (refused.length) {
        giveUp(`${refused.length} of ${places.length} widgets could not be started.`);
        return false;
      }
      if (!failed) {
        show(true);
        waiting = USABLE;
        status.say('Starting Python in your browser…', waiting);
      }
      mark('widgets drawn');
      return true;
    })
    .catch((error) => {
      giveUp(`The page's widgets could not be made: ${error.message || error}`);
      return false;
    });

  const finish = async () => {
    if (!await drawn || failed) return;
    hosts.forEach((host) => {
      const copy = copyOf(host);
      if (copy) copy.remove();
    });
    running = true;
    mark('live');
    const seconds = (performance.now() / 1000).toFixed(1);
    status.say('Live: Python is running in your browser.',
      `Started in ${seconds} s. Everything on this page is served by this site.`, 'loo-live-ready');
    document.documentElement.dataset.looLiveMs = String(Math.round(performance.now()));
    signal('ready');
    live.worker.postMessage({ live: true });
    progress.giveBack(manager);
  };

  const handle = (msg) => {
    if (msg.mark !== undefined) {
      performance.mark(`loo-live:worker ${msg.mark}`, { startTime: msg.at - performance.timeOrigin });
    } else if (msg.step !== undefined) {
      mark(msg.step);
      status.say(`Starting Python in your browser… (${msg.step})`, waiting);
      status.progress(msg.done, msg.total);
    } else if (msg.failed !== undefined) {
      (running ? stopped : giveUp)(msg.failed);
    } else if (msg.settled) {
      document.documentElement.dataset.looLiveSettled = '';
    } else if (msg.ready) {
      document.documentElement.dataset.looLiveStart = msg.saved ? 'saved' : 'fresh';
      mark('python ready');
      finish();
    } else {
      connection.deliver(msg);
    }
  };
  live.listen(handle);
}

const progress = startProgress();
if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', start);
} else {
  start();
}
