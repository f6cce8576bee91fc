// The classroom page's part in keeping the class: who the reader joined as,
// and every exercise they check sent to the server, which has the engine
// judge it again and keeps it for the teacher.
//
// The exercise widget marks each check on its summary line with a
// data-loo-checked attribute: the check's own id, the kind, the seed and
// the answers, and no verdict (loo_tutor/widgets/exercise.py). Each mark
// seen is first kept in this browser (an outbox in localStorage, one per
// server prefix), then posted to /loo/answer with the page's XSRF token and
// the student's cookie; it leaves the outbox once the server says it is on
// disk. A check whose report is lost (the server went away, the page was
// closed) is posted again when the server answers, from this page or the
// next one opened on this server; the server keeps one row per check id.
//
// A bar at the top of the page says who the reader joined as, with their
// own progress as the server keeps it, or offers to join; while the server
// does not answer it says so, and when it answers again after the page's
// kernel is gone (the server was restarted) the page is opened again at
// once. Each time the server says what it keeps for the student (/loo/me,
// after the outbox is sent), the student's checks as its class book holds
// them (its ``work``: id, kind, seed and verdict, oldest first) are given to
// the live page's score lines (Scoreboard.from_book in
// loo_tutor/widgets/exercise.py), so that the page scores them with the one
// score model as the teacher's page does, after a reload or a restart too.
// A server that answers 503 cannot keep the class just now (its
// teacher's page says why): the checks wait in the outbox, the bar says so,
// and they are sent again a little later.
//
// Every address is under the server's prefix (its --base-url, as behind
// JupyterHub's proxy, where /user/ann/ and /user/bob/ share one origin),
// which the page gives in its body's data-loo-base.

function pageBase() {
  const given = document.body ? document.body.dataset.looBase : undefined;
  return typeof given === 'string' && given.startsWith('/') && given.endsWith('/') ? given : '/';
}

const BASE = pageBase();
// The outbox of the server at / keeps the name it always had.
const OUTBOX = BASE === '/' ? 'loo-classroom-outbox' : `loo-classroom-outbox:${BASE}`;
const MARK = 'data-loo-checked';
const RETRY_MS = 2000;
const UNKEPT_RETRY_MS = 15000;
const MOST_KEPT = 500;

let joined = null; // the name, once /loo/me says so
let offline = false;
let unkept = false; // the server answers, but cannot keep the class just now
let unkeptRetry = null;
let kernelLost = false;
let flushing = false;

function readOutbox() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(OUTBOX) || '{}');
    return kept && typeof kept === 'object' && !Array.isArray(kept) ? kept : {};
  } catch (error) {
    return {};
  }
}

function writeOutbox(kept) {
  try {
    window.localStorage.setItem(OUTBOX, JSON.stringify(kept));
  } catch (error) {
    // storage off or full: the report is still sent from memory below
  }
}

const pending = readOutbox(); // this page's view of the outbox, also kept in memory

function keep(report) {
  const kept = { ...readOutbox(), ...pending };
  kept[report.id] = report;
  const ids = Object.keys(kept);
  for (const id of ids.slice(0, Math.max(0, ids.length - MOST_KEPT))) delete kept[id];
  Object.assign(pending, kept);
  writeOutbox(kept);
}

function forget(id) {
  delete pending[id];
  const kept = readOutbox();
  delete kept[id];
  writeOutbox(kept);
}

function xsrf() {
  const found = document.cookie.match('\\b_xsrf=([^;]*)\\b');
  return found ? decodeURIComponent(found[1]) : '';
}

// -- the bar -------------------------------------------------------------------

function bar() {
  let line = document.querySelector('.loo-class-bar');
  if (!line) {
    line = document.createElement('div');
    line.className = 'loo-class-bar';
    line.setAttribute('role', 'status');
    document.body.prepend(line);
  }
  return line;
}

function joinLink() {
  const link = document.createElement('a');
  link.href = `${BASE}loo/join?next=${encodeURIComponent(location.pathname + location.search)}`;
  link.textContent = 'Join the class';
  link.className = 'loo-join';
  return link;
}

function progressText(me) {
  const kinds = Object.entries(me.kinds || {});
  if (!kinds.length) return 'No exercise checked yet.';
  return `Right / tried: ${kinds.map(([kind, t]) => `${kind} ${t.right} / ${t.tried}`).join(', ')}.`;
}

function draw(me) {
  const line = bar();
  const waiting = Object.keys(pending).length;
  line.replaceChildren();
  delete line.dataset.looKept;
  if (offline) {
    line.dataset.looOffline = '';
    line.append(`The classroom server is not answering. ${waiting
      ? `${waiting} checked answer${waiting === 1 ? ' is' : 's are'} kept in this browser and will be sent`
      : 'This page connects again'} when it is back.`);
    return;
  }
  delete line.dataset.looOffline;
  if (!joined) {
    line.append('Join the class so that your teacher sees the exercises you check. ', joinLink());
    if (waiting) line.append(` (${waiting} checked answer${waiting === 1 ? '' : 's'} waiting.)`);
    return;
  }
  const name = document.createElement('strong');
  name.textContent = joined;
  line.append('Joined as ', name, `. ${me ? progressText(me) : ''}`);
  if (me && me.rejoin) {
    const code = document.createElement('strong');
    code.className = 'loo-rejoin';
    code.textContent = me.rejoin;
    line.append(' Your rejoin code, to join from another computer: ', code, '.');
  }
  if (unkept) {
    line.dataset.looKept = 'refused';
    line.append(` The server cannot keep answers just now: ${waiting} checked answer${
      waiting === 1 ? ' is' : 's are'} kept in this browser and sent once it can.`);
    return;
  }
  line.dataset.looKept = waiting ? 'waiting' : 'all';
  line.append(waiting ? ` Sending ${waiting} answer${waiting === 1 ? '' : 's'}...`
    : ' Every answer you checked is kept for your teacher.');
}

// -- talking to the server -------------------------------------------------------

async function whoAmI() {
  const reply = await fetch(`${BASE}loo/me`, { credentials: 'same-origin', cache: 'no-store' });
  if (!reply.ok) throw new Error(`status ${reply.status}`);
  return reply.json();
}

// Gives the live page's score lines the student's checks as the class book holds them.
function handBook(me) {
  const page = window.looClassroom;
  if (!page || !me || !Array.isArray(me.work)) return;
  page.manager.tell('loo-score', { book: me.work }).catch((error) => {
    console.warn('the class book\'s checks could not be given to the page:', error);
  });
}

// Once the page is live: asks the server for the student's checks, for the score lines.
export async function giveBook() {
  try {
    handBook(await whoAmI());
  } catch (error) {
    // the server is away: the checks come with its next answer (flush)
  }
}

async function send(report) {
  const reply = await fetch(`${BASE}loo/answer`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-XSRFToken': xsrf() },
    body: JSON.stringify(report),
  });
  if (reply.status === 403) return 'not joined';
  if (reply.status === 503) return 'not kept';
  if (reply.status === 429) return 'later'; // too many at once: the rest wait a moment
  if (reply.status === 400) return 'refused'; // never kept, however often it is sent
  if (!reply.ok) throw new Error(`status ${reply.status}`);
  return 'kept';
}

async function flush() {
  if (flushing) return;
  flushing = true;
  try {
    unkept = false;
    for (const report of Object.values({ ...readOutbox(), ...pending })) {
      if (!joined) break;
      const said = await send(report);
      if (said === 'kept' || said === 'refused') forget(report.id);
      else if (said === 'not kept') {
        unkept = true;
        break;
      } else if (said === 'later') {
        setTimeout(flush, RETRY_MS);
        break;
      } else joined = null;
    }
    if (unkept && !unkeptRetry) {
      unkeptRetry = setTimeout(() => {
        unkeptRetry = null;
        flush();
      }, UNKEPT_RETRY_MS);
    }
    if (offline) document.documentElement.dataset.looServer = 'back';
    offline = false;
    const me = joined ? await whoAmI() : null;
    draw(me);
    handBook(me);
  } catch (error) {
    wentAway();
  } finally {
    flushing = false;
  }
}

let retrying = null;

function wentAway() {
  offline = true;
  document.documentElement.dataset.looServer = 'away';
  draw(null);
  if (!retrying) retrying = setTimeout(comeBack, RETRY_MS);
}

async function comeBack() {
  retrying = null;
  try {
    const me = await whoAmI();
    joined = me.name;
    if (kernelLost) {
      await flush();
      if (!offline) location.reload(); // the server was started again: a new kernel for the page
      return;
    }
    offline = false;
    await flush();
  } catch (error) {
    wentAway();
  }
}

function seen(element) {
  let report;
  try {
    report = JSON.parse(element.getAttribute(MARK));
  } catch (error) {
    return;
  }
  if (!report || typeof report.id !== 'string' || pending[report.id]) return;
  keep(report);
  draw(null);
  flush();
}

function watch() {
  const look = (node) => {
    if (node.nodeType !== 1) return;
    if (node.hasAttribute(MARK)) seen(node);
    node.querySelectorAll(`[${MARK}]`).forEach(seen);
  };
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === 'attributes') look(change.target);
      else change.addedNodes.forEach(look);
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true,
    attributeFilter: [MARK] });
}

// Starts keeping the class. The page sends the event loo-connection-lost
// when its kernel's connection drops, and loo-kernel-lost when it cannot be
// made again.
export function startClassbook() {
  watch();
  document.addEventListener('loo-connection-lost', () => {
    if (!retrying) retrying = setTimeout(comeBack, 0); // is the server there at all?
  });
  document.addEventListener('loo-kernel-lost', () => { // the server answers: open the page again
    kernelLost = true;
    clearTimeout(retrying);
    retrying = setTimeout(comeBack, 0);
  });
  whoAmI().then((me) => {
    joined = me.name;
    draw(me);
    handBook(me);
    return flush();
  }).catch(wentAway);
}
