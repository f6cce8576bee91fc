// The Web Worker of a live book page (built into _static/live/worker.js).
// Pyodide, served by the site from _static/pyodide, starts here from the
// memory the book's build saved (snapshot.bin.gz, named with this script's
// query, so that a page never meets the memory of another build, like the
// standard library's zip made with it), in which
// loo_live_worker.py has made every live page's widgets. The page's widget
// manager (live.js) has made the same widgets' models from the page's saved
// state; from then on they talk through messages.
//
// To the page: {step, done, total} as the start goes on; {ready: true} once
// Python holds the widgets and takes the page's messages; Jupyter iopub
// messages (comm messages, status, errors); {failed: reason} if Python
// cannot start. From the page: Jupyter messages for the widgets (comm_msg
// ...), kept until Python is ready.
/* global loadPyodide */
importScripts('../pyodide/pyodide.js');

const PYODIDE = new URL('../pyodide/', self.location.href).href;
// The saved memory, and the standard library's zip made with it (less the
// modules in that memory), named with this script's query.
const SNAPSHOT = new URL(`../pyodide/snapshot.bin.gz${self.location.search}`, self.location.href).href;
const STDLIB = new URL(`../pyodide/python_stdlib.zip${self.location.search}`, self.location.href).href;
let bridge = null;
const early = []; // the page's messages that came before Python was ready

function step(text, done, total) {
  self.postMessage({ step: text, done, total });
}

// Called by Python with one message (JSON) and its binary parts.
function post(json, buffers) {
  const msg = JSON.parse(json);
  msg.buffers = buffers.toJs();
  self.postMessage(msg);
}

function receive(msg) {
  const { buffers, ...rest } = msg;
  bridge.receive(JSON.stringify(rest), buffers || []);
}

async function savedMemory() {
  const response = await fetch(SNAPSHOT).catch(() => {
    throw new Error('the saved Python could not be loaded: the network did not bring it');
  });
  if (!response.ok) throw new Error(`the saved Python could not be loaded (${response.status})`);
  return new Response(response.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}

async function start() {
  try {
    step('loading Python', 0, 2);
    const pyodide = await loadPyodide({
      indexURL: PYODIDE, stdLibURL: STDLIB, _loadSnapshot: savedMemory(),
    });
    pyodide.setStdout({ batched: (line) => console.log(line) });
    pyodide.setStderr({ batched: (line) => console.warn(line) });
    step("connecting the page's widgets", 1, 2);
    bridge = pyodide.pyimport('loo_live_worker');
    bridge.connect(post);
    early.splice(0).forEach(receive);
    self.postMessage({ ready: true });
  } catch (error) {
    self.postMessage({ failed: String((error && error.message) || error) });
  }
}

self.onmessage = (event) => {
  if (bridge) receive(event.data);
  else early.push(event.data);
};
start();
