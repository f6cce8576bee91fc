/* Start the Python of a live book page as early as possible (see live.js).
 *
 * _ext/loo_live.py writes this script inline at the top of <head>, after
 * the page's code cells (a JSON script tag, id loo-live-cells) and before
 * the page's stylesheets, which a script file would wait for. It starts the
 * page's Web Worker (the address in data-worker), which loads Python and
 * runs the cells while the rest of the page loads, and keeps the worker's
 * messages until the page's script (live.js) takes them with
 * window.looLive.listen(handler). Pages opened from a file, and browsers
 * without WebAssembly or workers, get no worker: live.js then says so.
 */
(function () {
  "use strict";
  const script = document.currentScript;
  const cells = document.getElementById("loo-live-cells");
  if (!script || !cells || location.protocol === "file:" || typeof WebAssembly !== "object" ||
      typeof Worker !== "function") {
    return;
  }
  let kept = [];
  let handler = null;
  let worker;
  try {
    worker = new Worker(script.dataset.worker);
  } catch (error) {
    return;
  }
  const take = (msg) => (handler ? handler(msg) : kept.push(msg));
  worker.onmessage = (event) => take(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    take({failed: "Python's worker stopped: " + (event.message || "it could not be loaded")});
  };
  worker.postMessage({start: {cells: JSON.parse(cells.textContent)}});
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
