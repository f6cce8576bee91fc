// The classroom page's front end: it connects to the kernel Voila started
// for the page, asks it for every widget's state, and draws each widget
// where the notebook's output names it. Everything else on the page (the
// text cells, other output) was drawn by the server. The exercises solved
// are kept in the browser (progress.js), and every exercise checked is sent
// to the server for the teacher (classbook.js), whose class book gives the
// page's score line the student's checks so far (classbook.js, giveBook).
import '@jupyter-widgets/controls/css/widgets-base.css';
import 'font-awesome/css/font-awesome.css';
import './page.css';
import { Widget as LuminoWidget } from '@lumino/widgets';
import { watchKernel } from './faults.js';
import { Kernel } from './kernel.js';
import { WidgetManager } from './manager.js';
import { startProgress } from './progress.js';
import { giveBook, startClassbook } from './classbook.js';
import { holdChecks, restoreWork, saveWork } from './work.js';

function say(message) {
  const line = document.getElementById('loading_text');
  if (line) line.textContent = message;
}

function reveal() {
  const sign = document.getElementById('loading');
  if (sign) sign.remove();
  const cells = document.getElementById('rendered_cells');
  if (cells) cells.style.display = '';
}

// Tells Voila the page is gone, so that its kernel stops at once instead of
// when culled (as Voila's own front end does).
function stopKernelOnLeaving(baseUrl, kernel) {
  window.addEventListener('beforeunload', () => {
    const form = new FormData();
    const xsrf = document.cookie.match('\\b_xsrf=([^;]*)\\b');
    form.append('_xsrf', xsrf ? xsrf[1] : '');
    navigator.sendBeacon(`${baseUrl}voila/api/shutdown/${kernel.id}`, form);
  });
}

// Marks on the page's performance timeline (ms from navigation start), which
// the browser benchmark reads to say where an opening spends its time.
function mark(name) {
  performance.mark(`loo-classroom:${name}`);
}

// A line at the top of the page while the connection to the server is
// lost, or ``null`` to take it away.
function notice(message) {
  let line = document.querySelector('.loo-connection');
  if (!message) {
    if (line) line.remove();
    return;
  }
  if (!line) {
    line = document.createElement('div');
    line.className = 'loo-connection';
    line.setAttribute('role', 'alert');
    document.body.prepend(line);
  }
  line.textContent = message;
}

// Whether the server answers that it has no kernel ``kernelId`` (it was
// started again since the page opened); false while it does not answer.
async function kernelGone(baseUrl, kernelId, token) {
  const query = token ? `?${new URLSearchParams({ token })}` : '';
  try {
    const reply = await fetch(`${baseUrl}api/kernels/${encodeURIComponent(kernelId)}${query}`,
      { credentials: 'same-origin', cache: 'no-store' });
    return reply.status === 404;
  } catch (error) {
    return false;
  }
}

// Connects again when the websocket closes while the page is open (a network
// that drops for a moment), as JupyterLab's front end does; the kernel and
// its widgets are still there on the server. It tries again every
// second for as long as the page is open. When the server answers that it
// has no such kernel, it was restarted and the kernel is gone: the page
// says loo-kernel-lost, and the classroom's bar opens it again
// (classbook.js), the student's work kept (work.js).
function keepConnected(kernel, baseUrl, token) {
  let leaving = false;
  window.addEventListener('pagehide', () => { leaving = true; });
  window.addEventListener('beforeunload', () => { leaving = true; });
  const pause = (seconds) => new Promise((done) => setTimeout(done, seconds * 1000));
  const reconnect = async () => {
    if (leaving) return;
    kernel.onClose = null;
    notice('The connection to the server was lost. Connecting again...');
    document.dispatchEvent(new Event('loo-connection-lost'));
    for (let tries = 1; !leaving; tries += 1) {
      await pause(Math.min(1, tries / 2));
      try {
        await kernel.connect();
        kernel.onClose = reconnect;
        notice(null);
        return;
      } catch (error) {
        // the server is away, or it no longer has this page's kernel
      }
      if (await kernelGone(baseUrl, kernel.id, token)) {
        notice('The server was started again. This page opens again, with your answers...');
        document.dispatchEvent(new Event('loo-kernel-lost'));
        return;
      }
      if (tries === 6) {
        notice('The connection to the server is lost. This page opens again when the server '
          + 'is back, with your answers.');
      }
    }
  };
  kernel.onClose = reconnect;
}

export async function start() {
  mark('script run');
  const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
  const token = new URLSearchParams(location.search).get('token');
  const kernel = new Kernel({ baseUrl: config.baseUrl, kernelId: config.kernelId, token });
  try {
    await kernel.connect();
  } catch (error) {
    say(`This page could not reach its kernel: ${error.message}. Reload the page to try again.`);
    throw error;
  }
  mark('kernel connected');
  watchKernel(kernel);
  stopKernelOnLeaving(config.baseUrl, kernel);
  const manager = new WidgetManager(kernel);
  await manager.load();
  mark('widget state loaded');
  const places = [...document.querySelectorAll('[data-loo-model-id]')];
  const views = await Promise.all(places.map(async (place) => {
    try {
      const model = await manager.get_model(place.dataset.looModelId);
      return await manager.create_view(model);
    } catch (error) {
      console.warn('a widget could not be drawn:', error);
      return null;
    }
  }));
  mark('views made');
  reveal();
  places.forEach((place, i) => {
    if (views[i]) LuminoWidget.attach(views[i].luminoWidget, place);
  });
  keepConnected(kernel, config.baseUrl, token);
  mark('live');
  document.documentElement.dataset.looClassroom = 'live';
  window.looClassroom = { kernel, manager };
  await Promise.all([restoreWork(manager), progress.giveBack(manager), giveBook()]);
}

const progress = startProgress();
startClassbook();
holdChecks(() => Boolean(window.looClassroom)
  && window.looClassroom.kernel.socket.readyState === WebSocket.OPEN);
window.addEventListener('pagehide', saveWork);
start().catch((error) => {
  document.documentElement.dataset.looClassroom = 'failed';
  console.error('the classroom page did not start:', error);
});
