/* Start the live app of this page as early as possible (see loo_live.js).
 *
 * _ext/loo_live.py writes this script inline at the top of <head>, before
 * the page's stylesheets, so the app's frame is requested while the rest of
 * the page still loads; a script in a file would wait for those stylesheets.
 * The frame sits at the top of the document, invisible but in view (so the
 * browser keeps running it), until loo_live.js moves it into the article
 * with Element.moveBefore, which keeps it running. Browsers without
 * moveBefore get the frame from loo_live.js once the article exists.
 */
(function () {
  "use strict";
  const appUrl = document.currentScript && document.currentScript.dataset.app;
  if (!appUrl || location.protocol === "file:" || typeof WebAssembly !== "object" ||
      typeof Worker !== "function" || typeof Element.prototype.moveBefore !== "function") {
    return;
  }
  const frame = document.createElement("iframe");
  frame.className = "loo-live-frame loo-live-loading";
  frame.title = "Live version of this page";
  frame.setAttribute("tabindex", "-1");
  frame.setAttribute("aria-hidden", "true");
  frame.dataset.looEarly = "";
  frame.style.cssText = "position:fixed;left:0;top:0;width:100%;height:100%;border:0;" +
    "opacity:0;pointer-events:none;z-index:-1";
  frame.src = appUrl;
  document.documentElement.appendChild(frame);
})();
