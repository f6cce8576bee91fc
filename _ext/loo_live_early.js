/* Start the Python of a live book page as early as possible (see live.js).
 *
 * _ext/loo_live.py writes this script inline at the top of <head>, before
 * the page's stylesheets, which a script file would wait for. It starts the
 * page's Web Worker (the address in data-worker, named with the page's name
 * in data-page), which starts Python and makes the page's widgets there
 * while the rest of the page loads, and keeps the worker's messages until
 * the page's script (live.js) takes them with window.looLive.listen(handler). Pages opened
 * from a file, and browsers without WebAssembly, workers or gzip streams,
 * get no worker: live.js then says so.
 */
(function () {
  "use strict";
  const script = document.currentScript;
  if (!script || location.protocol === "file:" || typeof WebAssembly !== "object" ||
      typeof Worker !== "function" || typeof DecompressionStream !== "function") {
    return;
  }
  let kept = [];
  let handler = null;
  let worker;
  try {
    worker = new Worker(script.dataset.worker, {name: script.dataset.page});
  } catch (error) {
    return;
  }
  const take = (msg) => (handler ? handler(msg) : kept.push(msg));
  worker.onmessage = (event) => take(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    take({failed: "Python's worker stopped: " + (event.message || "it could not be loaded")});
  };
  window.looLive = {
    worker: worker,
    listen: function (listener) {
      handler = listener;
      const before = kept;
      kept = [];
      before.forEach(listener);
    },
  };
})();
