/* Live widgets for a notebook page of the loo-tutor book.
 *
 * The page first shows the widgets as they were saved when the book was
 * built. This script starts the same notebook as a Voici app (Python on
 * Pyodide, in this browser, served by this site) in a frame laid over the
 * page but invisible, shows a status line while Python starts, and swaps the
 * live app in once every cell has run and its widgets are drawn. If Python
 * cannot start, the saved widgets stay and the status line says so.
 *
 * The saved widgets are written into the page as plain HTML when the book is
 * built (_ext/loo_snapshot.py), their buttons and fields disabled. Only if
 * the app cannot start does this script load the widget manager (the
 * addresses in data-saved-widgets), which draws the saved widgets again in
 * their place with their sliders and menus working, still without Python.
 *
 * The frame's address comes from the data-app attribute of this script tag
 * (written by _ext/loo_live.py). The frame is same-origin, so its progress
 * and height can be read, and links in it (rule links such as
 * ../book/rules.html#r-lead-ace) are opened relative to this page.
 */
(function () {
  "use strict";

  const script = document.currentScript;
  const appUrl = script && script.dataset.app;
  const savedWidgets = script && script.dataset.savedWidgets ?
    script.dataset.savedWidgets.split(" ") : [];
  const GIVE_UP_MS = 180000;
  const POLL_MS = 100;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function makeFrame() {
    const frame = el("iframe", "loo-live-frame loo-live-loading");
    frame.title = "Live version of this page";
    frame.setAttribute("tabindex", "-1");
    frame.setAttribute("aria-hidden", "true");
    frame.src = appUrl;
    return frame;
  }

  // The widget manager, for a page that stays a saved copy: its scripts
  // load one after the other, and it draws the widgets in place of the HTML
  // copies (which stay if it cannot be loaded).
  function drawSavedWidgets() {
    if (!savedWidgets.length) return;
    savedWidgets.reduce(function (before, url) {
      return before.then(function () {
        return new Promise(function (done, failed) {
          const tag = document.createElement("script");
          tag.src = url;
          tag.onload = done;
          tag.onerror = failed;
          document.head.append(tag);
        });
      });
    }, Promise.resolve()).then(function () {
      // It draws once its own modules are loaded, after this.
      document.querySelectorAll(".loo-snapshot").forEach(function (copy) { copy.remove(); });
    }, function () { /* the HTML copies stay */ });
  }

  // The app was started while the page began to load, by the inline script
  // at the top of <head> (_ext/loo_live_early.js): its frame waits at the
  // top of the document and moves into the article without reloading once
  // the article exists. Browsers without Element.moveBefore start it here.
  let early = document.querySelector("iframe.loo-live-frame[data-loo-early]");

  function start() {
    const article =
      document.querySelector("article.bd-article") ||
      document.querySelector("main article") ||
      document.querySelector("[role='main']");
    if (!appUrl || !article) {
      if (early) early.remove();
      drawSavedWidgets();
      return;
    }

    const status = el("div", "loo-live-status");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    const spinner = el("span", "loo-live-spinner");
    spinner.setAttribute("aria-hidden", "true");
    const text = el("span", "loo-live-text");
    const note = el("span", "loo-live-note");
    status.append(spinner, text, note);
    article.prepend(status);

    function say(main, detail) {
      text.textContent = main;
      note.textContent = detail || "";
    }

    if (location.protocol === "file:") {
      status.classList.add("loo-live-off");
      say("These widgets are a saved copy.",
          "Serve the site (./dev site) to run them live in your browser.");
      drawSavedWidgets();
      return;
    }
    if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
      status.classList.add("loo-live-off");
      say("These widgets are a saved copy.", "This browser cannot run Python.");
      drawSavedWidgets();
      return;
    }

    say("Starting Python in your browser…",
        "Until it is ready, the widgets below are a saved copy and their buttons do nothing.");

    article.classList.add("loo-live-article");
    let frame = early;
    if (frame) {
      article.moveBefore(frame, null);
      frame.style.cssText = "";
      delete frame.dataset.looEarly;
    } else {
      frame = makeFrame();
      article.append(frame);
    }

    const began = 0;  // times are counted from the start of the page's navigation
    let shown = false;

    function frameDocument() {
      try {
        return frame.contentDocument;
      } catch (err) {
        return null;
      }
    }

    function fitHeight(doc) {
      const height = Math.max(doc.documentElement.scrollHeight, doc.body ? doc.body.scrollHeight : 0);
      frame.style.height = height + "px";
    }

    // Links in the app are written for this page of the book (rule links
    // such as ../book/rules.html#r-lead-ace), so open them from here.
    function keepLinksInBook(doc) {
      doc.addEventListener("click", function (event) {
        const link = event.target.closest && event.target.closest("a[href]");
        if (!link) return;
        const raw = link.getAttribute("href");
        if (!raw || raw.startsWith("#")) return;
        event.preventDefault();
        const url = new URL(raw, location.href);
        if (event.ctrlKey || event.metaKey || event.shiftKey || link.target === "_blank") {
          window.open(url.href, "_blank", "noopener");
        } else {
          location.assign(url.href);
        }
      }, true);
    }

    function show(doc) {
      shown = true;
      keepLinksInBook(doc);
      frame.classList.remove("loo-live-loading");
      frame.removeAttribute("aria-hidden");
      frame.removeAttribute("tabindex");
      article.classList.add("loo-live-on");
      fitHeight(doc);
      if (typeof ResizeObserver === "function") {
        new ResizeObserver(function () { fitHeight(doc); }).observe(doc.body);
      }
      status.classList.add("loo-live-ready");
      const seconds = ((performance.now() - began) / 1000).toFixed(1);
      say("Live: Python is running in your browser.",
          "Started in " + seconds + " s. Everything on this page is served by this site.");
      document.documentElement.dataset.looLiveMs = String(Math.round(performance.now()));
      document.documentElement.dataset.looLive = "ready";
    }

    function giveUp(reason) {
      frame.remove();
      status.classList.add("loo-live-off");
      say("Python could not start in this browser, so the widgets below stay a saved copy.",
          reason);
      document.documentElement.dataset.looLive = "failed";
      drawSavedWidgets();
    }

    // Whether the app has run every cell and drawn every widget.
    function ready(doc) {
      const loading = doc.getElementById("loading");
      const cells = doc.getElementById("rendered_cells");
      if (loading || !cells || cells.style.display === "none") return false;
      return doc.querySelectorAll(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.widget-view+json']:empty")
        .length === 0;
    }

    // The app is swapped in as soon as its document changes to ready, not at
    // the next poll (which only updates the status line and gives up).
    let watched = null;
    function watch(doc) {
      if (watched === doc || typeof MutationObserver !== "function") return;
      watched = doc;
      new MutationObserver(function (records, observer) {
        if (shown || frameDocument() !== doc) {
          observer.disconnect();
        } else if (ready(doc)) {
          observer.disconnect();
          show(doc);
        }
      }).observe(doc, {childList: true, subtree: true, attributes: true,
                       attributeFilter: ["style"]});
    }

    function poll() {
      if (shown) return;
      const elapsed = performance.now() - began;
      if (elapsed > GIVE_UP_MS) {
        giveUp("It took longer than " + GIVE_UP_MS / 1000 + " s.");
        return;
      }
      const doc = frameDocument();
      if (doc && doc.readyState !== "loading" && doc.body) {
        watch(doc);
        if (ready(doc)) {
          show(doc);
          return;
        }
        const progress = doc.getElementById("loading_text");
        const step = progress ? progress.textContent.trim().replace(/\.+$/, "") : "";
        say("Starting Python in your browser… " + Math.round(elapsed / 1000) + " s" +
            (step ? " (" + step.toLowerCase() + ")" : ""),
            "Until it is ready, the widgets below are a saved copy and their buttons do nothing.");
      }
      setTimeout(poll, POLL_MS);
    }

    document.documentElement.dataset.looLive = "starting";
    setTimeout(poll, POLL_MS);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
