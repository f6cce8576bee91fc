// The Web Worker of a live book page (built into _static/live/worker.js).
// Pyodide, served by the site from _static/pyodide, starts here, with the
// standard library's zip the build cut to what the pages import (named with
// this script's query, so that a page never meets the files of another
// build). The worker's name is the page's name.
//
// On a first visit Python starts afresh and loo_live_worker.py runs the
// page's cells, which make the same widgets, with the same ids, as the build
// made; once the page is live, the worker notes the visit in the origin's
// private file system and has a second worker of this script import
// Pyodide's scripts, so that the browser keeps their compiled code
// (keepCompiledCode). A reader who comes back (the next live page of this
// build they open, or this one again) starts afresh too, from the browser's
// cache, and once that page is live the worker fetches the memory the build
// saved (snapshot.bin.gz, in which every live page's widgets are made) and
// keeps it decompressed beside the note: it is larger than all the rest a
// page fetches, so it is fetched only for a reader who has come back, never
// while a class's first pages share one line. Every later visit starts
// Python from that memory, read while Pyodide loads, which is quicker and
// runs no cell; if it cannot be used, Python starts afresh. The page's
// widget manager (live.js) has made the same widgets' models from the
// page's saved state; from then on they talk through messages.
//
// To the page: {step, done, total} as the start goes on; {ready: true} once
// Python holds the widgets and takes the page's messages (saved: whether it
// started from the saved memory); Jupyter iopub
// messages (comm messages, status, errors); {settled: true} once the worker
// has nothing more to fetch (the rest of Python's modules, python_later.zip.gz,
// fetched once the page is live); {failed: reason} if Python cannot start;
// {mark: name, at: ms since the epoch} as each stage of the start ends, for
// the page's performance timeline. From
// the page: {live: true} once the page is live (only then is the saved
// memory fetched, on a reader's second visit); Jupyter messages for the
// widgets (comm_msg ...), kept until Python is ready.
/* global loadPyodide */

// A stage of the start, marked on the page's timeline (live.js), which the
// browser benchmark reads to say where a start spends its time.
function mark(name) {
  self.postMessage({ mark: name, at: performance.timeOrigin + performance.now() });
}

mark('worker started');
const PYODIDE = new URL('../pyodide/', self.location.href).href;
const SNAPSHOT = new URL(`../pyodide/snapshot.bin.gz${self.location.search}`, self.location.href).href;
const STDLIB = new URL(`../pyodide/python_stdlib.zip${self.location.search}`, self.location.href).href;
// The site sends that zip gzipped, whole (its modules stored uncompressed):
// the worker unpacks it as it arrives and hands it to Pyodide as STDLIB.
const STDLIB_GZ = new URL(`../pyodide/python_stdlib.zip.gz${self.location.search}`, self.location.href).href;
// The rest of what the pages may import (on a click), served apart and
// fetched once the page is live; Python fetches it at once if it needs a
// module of it before (loo_live_worker.expect_later).
const LATER_GZ = new URL(`../pyodide/python_later.zip.gz${self.location.search}`, self.location.href).href;
const WASM = `${PYODIDE}pyodide.asm.wasm`;
const KEPT = 'loo-live-saved-memory'; // the folder of the origin's private file system that keeps it
const KEPT_FILE = encodeURIComponent(SNAPSHOT); // the memory of this build, kept in KEPT
const VISITED = `${KEPT_FILE}.visited`; // in KEPT once a page of this build went live
let bridge = null;
const early = []; // the page's messages that came before Python was ready
let pageLive; // called when the page says it is live ({live: true})
const live = new Promise((resolve) => { pageLive = resolve; });

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

// The folder that keeps the saved memory, in the origin's private file
// system, which a worker reads at once into the memory it fills
// (createSyncAccessHandle); null in a browser without one.
async function keeper() {
  const storage = self.navigator.storage;
  if (!(storage && storage.getDirectory && self.FileSystemFileHandle
        && FileSystemFileHandle.prototype.createSyncAccessHandle)) return null;
  return (await storage.getDirectory()).getDirectoryHandle(KEPT, { create: true });
}

// The saved memory this build made, if an earlier visit kept it, read at
// once (while Pyodide's scripts load): {memory, read}, where read settles
// once the bytes of memory are all there; or null if none was kept, or if
// another page holds it and this browser lets only one read it at a time.
async function keptMemory() {
  const folder = await keeper().catch(() => null);
  const file = folder && await folder.getFileHandle(KEPT_FILE).catch(() => null);
  const handle = file && await file.createSyncAccessHandle({ mode: 'read-only' }).catch(() => null);
  if (!handle) return null;
  mark('saved memory found');
  const memory = new Uint8Array(handle.getSize());
  const read = readKept(handle, memory).then(() => mark('saved memory read'));
  read.catch(() => {}); // reported by fromMemory
  return { memory, read };
}

// ``memory`` filled from the kept file ``handle`` in one read, which holds
// the worker while it lasts: it waits a task first, so that Pyodide,
// started meanwhile, has asked for its WebAssembly, which the browser
// fetches and compiles beside the read. The file is closed at the end.
async function readKept(handle, memory) {
  try {
    await pause();
    if (handle.read(memory, { at: 0 }) !== memory.length) throw new Error('the saved memory was cut short');
  } finally {
    handle.close();
  }
}

// The kept memory dropped, as it could not be used.
async function dropKept() {
  const folder = await keeper();
  if (folder) await folder.removeEntry(KEPT_FILE);
}

// Pyodide's scripts, imported (import()) rather than loaded by loadPyodide
// with importScripts: Chromium keeps the compiled code of a worker's imports
// (and none of its importScripts) from the second time it meets them, and
// later visits compile nothing.
function importPyodide() {
  return Promise.all(['pyodide.js', 'pyodide.asm.js'].map((name) => import(PYODIDE + name)));
}

// Pyodide's WebAssembly and standard library, asked for as the worker
// starts, beside Pyodide's scripts: Pyodide asks for them only once its
// scripts have loaded and run, and then gets these responses, under way
// (fetch, wrapped here, hands each out once, and asks again for either if
// Pyodide does; every other request goes out as it comes). The standard
// library comes gzipped (STDLIB_GZ) and is unpacked on its way.
function askEarly() {
  const fetchAnew = self.fetch;
  const fetchers = new Map([
    [WASM, () => fetchAnew.call(self, WASM)],
    [STDLIB, () => unpacked(fetchAnew.call(self, STDLIB_GZ))],
  ]);
  const asked = new Map([...fetchers].map(([url, fetcher]) => {
    const response = fetcher();
    response.catch(() => {}); // reported by Pyodide, which takes it
    return [url, response];
  }));
  self.fetch = (resource, options) => {
    const url = resource instanceof Request ? resource.url : String(resource);
    const response = asked.get(url);
    asked.delete(url);
    if (response) return response;
    return fetchers.has(url) ? fetchers.get(url)() : fetchAnew.call(self, resource, options);
  };
}

// The gzipped response ``sent`` (a promise), unpacked as it arrives and
// read whole at once, so that it comes at the link's pace however late
// Pyodide asks for it; a response that failed is handed on as it is, for
// Pyodide to report.
async function unpacked(sent) {
  const response = await sent;
  if (!response.ok || !response.body) return response;
  const zip = await new Response(response.body.pipeThrough(new DecompressionStream('gzip'))).blob();
  return new Response(zip, { headers: { 'Content-Type': 'application/zip' } });
}

const COMPILE_ONLY = 'loo-live: compile only'; // a worker of this name only imports Pyodide's scripts

// A second worker that imports Pyodide's scripts: on a first visit, the
// second time the browser meets them, so that the very next visit takes
// their compiled code. Resolves once it has (or could not).
function keepCompiledCode() {
  return new Promise((resolve) => {
    const helper = new Worker(self.location.href, { name: COMPILE_ONLY });
    const done = () => {
      helper.terminate();
      resolve();
    };
    helper.onmessage = (event) => { if (event.data.imported) done(); };
    helper.onerror = done;
  });
}

const PIECE = 1 << 16; // the compressed bytes decompressed at a time, between pauses

// A pause until the worker's next task: what the page sent meanwhile (a
// press on a widget) is answered first.
function pause() {
  return new Promise((resolve) => { setTimeout(resolve, 0); });
}

// Whether a page of this build went live in this browser before; notes that
// one has. What an earlier build kept is dropped.
async function cameBefore(folder) {
  for await (const name of folder.keys()) {
    if (name !== KEPT_FILE && name !== VISITED) await folder.removeEntry(name).catch(() => {});
  }
  if (await folder.getFileHandle(VISITED).catch(() => null)) return true;
  await folder.getFileHandle(VISITED, { create: true });
  return false;
}

// Once the page is live: the rest of what the pages may import, handed to
// Python, which keeps it (or has it already, if it needed it sooner).
async function fetchLater() {
  const response = await fetch(LATER_GZ);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  const gzipped = new Uint8Array(await response.arrayBuffer());
  await pause(); // a press that came meanwhile is answered first
  bridge.add_later(gzipped);
  mark('later modules kept');
}

// After a fresh start, once the page is live: on a reader's first visit,
// the visit noted; on a later one, the saved memory fetched and kept.
async function keepForNextVisit() {
  const folder = await keeper();
  if (folder && await cameBefore(folder)) await keepMemory(folder);
}

// Fetches the saved memory into ``folder`` (KEPT) and keeps it for the next
// visit, decompressed (so that a later visit only reads it). It is decompressed a piece at a time, with a pause after each, as
// the page is live by then; it is written beside, and named as kept only
// once whole.
async function keepMemory(folder) {
  if (await folder.getFileHandle(KEPT_FILE).catch(() => null)) return;
  const response = await fetch(SNAPSHOT);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  const part = await folder.getFileHandle(`${KEPT_FILE}.part`, { create: true });
  const handle = await part.createSyncAccessHandle();
  try {
    const unzip = new DecompressionStream('gzip');
    const written = writeAll(handle, unzip.readable);
    written.catch(() => {}); // awaited below, or failed by the abort
    const writer = unzip.writable.getWriter();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (let at = 0; at < value.length; at += PIECE) {
          await writer.write(value.subarray(at, at + PIECE));
          await pause();
        }
      }
      await writer.close();
    } catch (error) {
      writer.abort(error).catch(() => {});
      throw error;
    }
    handle.truncate(await written);
    handle.flush();
  } finally {
    handle.close();
  }
  await part.move(KEPT_FILE);
}

// The bytes of ``stream`` written to the file ``handle`` from its start;
// resolves with their number.
async function writeAll(handle, stream) {
  const reader = stream.getReader();
  let at = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return at;
    at += handle.write(value, { at });
  }
}

// Pyodide started from the kept memory (keptMemory), with its private
// snapshot option (_loadSnapshot): Pyodide takes the memory's size at once
// and waits for its bytes before its own start ends (fsInit), then restores
// it. Pyodide 0.29 logs a memory that WebAssembly cannot take ("wasm
// instantiation failed!") and then waits for ever: that log fails the start
// here, as does a memory that cannot be read.
function fromMemory(options, { memory, read }) {
  return new Promise((resolve, reject) => {
    const warn = console.warn;
    const restore = () => { console.warn = warn; };
    const fail = (error) => {
      restore();
      reject(error);
    };
    console.warn = (...args) => {
      warn(...args);
      if (String(args[0]).includes('instantiation failed')) {
        fail(new Error('WebAssembly could not take the saved memory'));
      }
    };
    // Unread, Pyodide never restores it: it waits for ever, and the start fails here.
    const whole = read.catch((error) => {
      fail(error);
      return new Promise(() => {});
    });
    loadPyodide({ ...options, _loadSnapshot: memory, fsInit: () => whole })
      .then(resolve, reject).finally(restore);
  });
}

// Python, started from the saved memory if an earlier visit kept it, else
// afresh; the one use of Pyodide's snapshot option. A memory that cannot be
// read or started from is dropped, and Python starts afresh. Resolves with
// {pyodide, saved}: saved tells whether it started from the saved memory.
async function startPython() {
  const options = { indexURL: PYODIDE, stdLibURL: STDLIB };
  const kept = keptMemory(); // looked for, and read, while Pyodide's scripts load
  await importPyodide();
  mark('Pyodide imported');
  try {
    const memory = await kept;
    if (memory) return { pyodide: await fromMemory(options, memory), saved: true };
  } catch (error) {
    console.warn('Python could not start from the saved memory; starting it afresh:', error);
    await dropKept().catch(() => {});
  }
  return { pyodide: await loadPyodide(options), saved: false };
}

async function start() {
  step('loading Python', 0, 3);
  let started;
  try {
    started = await startPython();
  } catch (error) {
    console.warn('Python could not start:', error);
    self.postMessage({ failed: "Python's files could not be loaded from this site; "
      + 'reload the page to try again.' });
    return;
  }
  const { pyodide, saved } = started;
  mark('Pyodide started');
  try {
    pyodide.setStdout({ batched: (line) => console.log(line) });
    pyodide.setStderr({ batched: (line) => console.warn(line) });
    step("making the page's widgets", 1, 3);
    bridge = pyodide.pyimport('loo_live_worker');
    bridge.expect_later(LATER_GZ);
    bridge.start(self.name);
    const needed = bridge.imported_early();
    if (needed) console.error(`the page's start imported what the build left for later: ${needed}`);
    mark("page's widgets made");
    step("connecting the page's widgets", 2, 3);
    bridge.connect(post);
    early.splice(0).forEach(receive);
    mark("page's widgets connected");
    self.postMessage({ ready: true, saved });
  } catch (error) {
    self.postMessage({ failed: String((error && error.message) || error) });
    return;
  }
  await live;
  await fetchLater().catch((error) => console.warn("the rest of Python's modules were not fetched:", error));
  if (!saved) {
    await keepForNextVisit().catch((error) => console.warn('the saved memory was not kept:', error));
    if (typeof Worker === 'function') await keepCompiledCode();
  }
  self.postMessage({ settled: true });
}

if (self.name === COMPILE_ONLY) {
  importPyodide().finally(() => self.postMessage({ imported: true }));
} else {
  self.onmessage = (event) => {
    if (event.data.live) pageLive();
    else if (bridge) receive(event.data);
    else early.push(event.data);
  };
  askEarly();
  start();
}
