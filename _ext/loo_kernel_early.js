/* Start Python for a Voici app page while the app itself is still loading.
 *
 * The app (JupyterLite's Voici) spends the first second or two of a visit
 * loading and starting its own JavaScript; only then does it create the
 * Pyodide kernel, whose worker thread loads Python and imports the kernel's
 * packages, another second or two. scripts/early_kernel.py writes this
 * script inline at the top of <head> of every app page, so that the kernel's
 * worker is created at once and starts Python on another processor core
 * while the app starts on this one. When the app creates its kernel, the
 * kernel takes this worker instead of making a new one (the build adds the
 * call of __looAdoptWorker to the kernel's code).
 *
 * Attributes of the script tag, written by the build:
 *   data-worker   the kernel's worker script, relative to the page;
 *   data-options  what the worker needs to start Python, as the kernel
 *                 would give it: where Pyodide is, the packages to load and
 *                 the kernel's settings, with addresses relative to the page;
 *                 looLoad, the packages Pyodide must load (the others the
 *                 kernel names have their code in the standard library's
 *                 zip); and looImports, the modules the notebook imports,
 *                 which the worker imports once Python is ready.
 *
 * The worker is only handed over when the kernel's settings are the ones it
 * was started with; otherwise it is stopped and the kernel starts its own.
 */
(function () {
  "use strict";
  const script = document.currentScript;
  if (!script || typeof Worker !== "function" || typeof WebAssembly !== "object" ||
      self.crossOriginIsolated) {
    return;  // an isolated page makes the kernel use its other worker
  }
  const fromPage = (url) => new URL(url, document.baseURI).href;
  let options;
  let worker;
  try {
    options = JSON.parse(script.dataset.options);
    options.pyodideUrl = fromPage(options.pyodideUrl);
    options.indexUrl = options.pyodideUrl.slice(0, options.pyodideUrl.lastIndexOf("/") + 1);
    options.baseUrl = fromPage(options.baseUrl);
    options.pipliteUrls = options.pipliteUrls.map(fromPage);
    // As the kernel's plugin does: settings named ...URL are relative to the site.
    for (const [key, value] of Object.entries(options.loadPyodideOptions)) {
      if (key.endsWith("URL") && typeof value === "string") {
        options.loadPyodideOptions[key] = new URL(value, options.baseUrl).href;
      }
    }
    worker = new Worker(fromPage(script.dataset.worker),
                        {name: "loo-prestart " + JSON.stringify(options)});
  } catch (err) {
    return;  // the kernel starts its own worker as usual
  }
  const settings = (kernel) => JSON.stringify([
    kernel.pyodideUrl, kernel.loadPyodideOptions, Boolean(kernel.mountDrive),
    Boolean(kernel.disablePyPIFallback)]);
  const started = settings(options);
  // Called by the kernel in place of creating its worker: the worker, or
  // null if the kernel's settings differ. One kernel only: a restarted
  // kernel gets a fresh worker.
  self.__looAdoptWorker = function (kernel) {
    self.__looAdoptWorker = null;
    if (settings(kernel) === started) {
      return worker;
    }
    worker.terminate();
    return null;
  };
})();
