// The classroom page's front end: it connects to the kernel Voila started
// for the page, asks it for every widget's state, and draws each widget
// where the notebook's output names it. Everything else on the page (the
// text cells, other output) was drawn by the server. The exercises solved
// are kept in the browser (progress.js), and every exercise checked is sent
// to the server for the teacher (classbook.js).
import '@jupyter-widgets/controls/css/widgets-base.css';
import 'font-awesome/css/font-awesome.css';
import './page.css';
import { Widget as LuminoWidget } from '@lumino/widgets';
import { watchKernel } from './faults.js';
import { Kernel } from './kernel.js';
import { WidgetManager } from './manager.js';
import { startProgress } from './progress.js';
import { startClassbook } from './classbook.js';

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

// Connects again when the websocket closes while the page is open (a network
// that drops for a moment), as JupyterLab's front end does; the kernel and
// its widgets are still there on the server.
function keepConnected(kernel) {
  let leaving = false;
  window.addEventListener('pagehide', () => { leaving = true; });
  window.addEventListener('beforeunload', () => { leaving = true; });
  const pause = (seconds) => new Promise((done) => setTimeout(done, seconds * 1000));
  const reconnect = async () => {
    if (leaving) return;
    kernel.onClose = null;
    notice('The connection to the server was lost. Connecting again...');
    document.dispatchEvent(new Event('loo-connection-lost'));
    for (const seconds of [0.5, 1, 2, 4, 8, 15]) {
      await pause(seconds);
      try {
        await kernel.connect();
        kernel.onClose = reconnect;
        notice(null);
        return;
      } catch (error) {
        // tried again after a longer pause
      }
    }
    notice('The connection to the server is lost. This page opens again when the server is back.');
    document.dispatchEvent(new Event('loo-kernel-lost'));
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
  keepConnected(kernel);
  mark('live');
  document.documentElement.dataset.looClassroom = 'live';
  window.looClassroom = { kernel, manager };
}

startProgress();
startClassbook();
start().catch((error) => {
  document.documentElement.dataset.looClassroom = 'failed';
  console.error('the classroom page did not start:', error);
});
