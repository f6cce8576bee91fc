// The Web Worker of a live book page (built into _static/live/worker.js).
// Pyodide, served by the site from _static/pyodide, runs the page's code
// cells here, and the widgets they make talk to the page's widget manager
// (live.js) through messages: loo_live_worker.py is their Python side.
//
// From the page: {start: {cells: [{code, name, shown}, ...]}} once, then
// Jupyter messages for the widgets (comm_msg ...). To the page: {step,
// done, total} as the start-up goes on; Jupyter iopub messages (comms,
// display_data for each widget a cell shows, status); {cellsRun: true} when
// every cell has run; {failed: reason} if Python cannot start or a cell fails.
/* global loadPyodide */
importScripts('../pyodide/pyodide.js');

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

async function start(cells) {
  const total = cells.length + 2;
  try {
    step('loading Python', 0, total);
    const pyodide = await loadPyodide({ indexURL: new URL('../pyodide/', self.location.href).href });
    pyodide.setStdout({ batched: (line) => console.log(line) });
    pyodide.setStderr({ batched: (line) => console.warn(line) });
    step("loading loo-tutor's widgets", 1, total);
    bridge = pyodide.pyimport('loo_live_worker');
    bridge.start(post);
    pyodide.runPython('import loo_tutor.widgets');
    for (const [i, cell] of cells.entries()) {
      step(`running cell ${i + 1} of ${cells.length}`, i + 2, total);
      bridge.run_cell(cell.code, cell.name, cell.shown);
    }
    early.splice(0).forEach(receive);
    self.postMessage({ cellsRun: true });
  } catch (error) {
    self.postMessage({ failed: String(error && error.message || error) });
  }
}

self.onmessage = (event) => {
  const msg = event.data;
  if (msg.start) start(msg.start.cells);
  else if (bridge) receive(msg);
  else early.push(msg);
};
