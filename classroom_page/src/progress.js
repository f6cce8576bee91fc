// Progress that lasts, on the book's live pages and the classroom's pages
// alike: the exercises solved, kept in the reader's own browser.
//
// The exercise widgets' score line (loo_tutor/widgets/exercise.py, Scoreboard)
// lists the variants the engine judged solved, as JSON in its
// data-loo-solved attribute: [{kind, title, seed}, ...]. This script watches
// the page for those marks and keeps each new one in localStorage under one
// key, so that nothing leaves the browser. It decides nothing: a variant is
// kept only when Python's mark says it was solved. In every place the page
// keeps for it (an element of class loo-progress, written in a notebook's
// text) it draws the panel "Solved in this browser": per kind of exercise,
// how many variants and which seeds, and a button that forgets them all
// (after a question, answered with the keyboard as well as the mouse). The
// panel is drawn from what is kept, so a saved page without Python shows it
// too. A browser that keeps nothing (storage off or blocked) gets the panel
// with a line saying so; what is kept and cannot be read is left aside.
import './progress.css';

const KEY = 'loo-tutor-progress';
const VERSION = 1;
const MARK = 'data-loo-solved';
const PLACE = '.loo-progress';
const SAVED_COPY = '.loo-snapshot'; // the page's saved widgets: their marks were not the reader's
const MOST_SEEDS = 1000; // kept per kind, at the most
const SEEDS_SHOWN = 12;

// -- what is kept --------------------------------------------------------------

function storage() {
  try {
    const store = window.localStorage;
    const probe = `${KEY}-probe`;
    store.setItem(probe, '1');
    store.removeItem(probe);
    return store;
  } catch (error) {
    return null; // storage is off, blocked or full
  }
}

function isSeed(value) {
  return Number.isInteger(value) && value >= 0 && value <= 1e9;
}

function isKind(value) {
  return Number.isInteger(value) && value >= 1 && value <= 99;
}

// What is kept, checked entry by entry: {kinds: {kind: {title, seeds: [...]}}};
// anything that is not of that shape is left out.
function readKept(text) {
  const kinds = {};
  let data;
  try {
    data = JSON.parse(text || 'null');
  } catch (error) {
    return kinds;
  }
  if (!data || data.version !== VERSION || typeof data.kinds !== 'object' || !data.kinds) {
    return kinds;
  }
  for (const [name, entry] of Object.entries(data.kinds)) {
    const kind = Number(name);
    if (!isKind(kind) || !entry || typeof entry.title !== 'string' || !Array.isArray(entry.seeds)) {
      continue;
    }
    const seeds = [...new Set(entry.seeds.filter(isSeed))].slice(0, MOST_SEEDS);
    if (seeds.length) kinds[kind] = { title: entry.title.slice(0, 200), seeds };
  }
  return kinds;
}

// The marks of one score line, checked as what is kept is.
function readMarks(text) {
  let marks;
  try {
    marks = JSON.parse(text);
  } catch (error) {
    return [];
  }
  if (!Array.isArray(marks)) return [];
  return marks.filter((m) => m && isKind(m.kind) && isSeed(m.seed) && typeof m.title === 'string');
}

class Progress {
  constructor() {
    this.store = storage();
    this.failed = !this.store;
    this.kinds = this.store ? readKept(this.store.getItem(KEY)) : {};
  }

  reload() {
    if (this.store) this.kinds = readKept(this.store.getItem(KEY));
  }

  get count() {
    return Object.values(this.kinds).reduce((sum, entry) => sum + entry.seeds.length, 0);
  }

  // Adds the variants of ``marks`` not kept yet; true if any was new.
  add(marks) {
    this.reload(); // another tab of the book may have kept some since
    let added = false;
    for (const { kind, title, seed } of marks) {
      const entry = this.kinds[kind] || (this.kinds[kind] = { title, seeds: [] });
      entry.title = title.slice(0, 200);
      if (!entry.seeds.includes(seed) && entry.seeds.length < MOST_SEEDS) {
        entry.seeds.push(seed);
        added = true;
      }
    }
    if (added) this.save();
    return added;
  }

  save() {
    if (!this.store) return;
    try {
      this.store.setItem(KEY, JSON.stringify({ version: VERSION, kinds: this.kinds }));
    } catch (error) {
      this.failed = true; // full: what is shown is kept for this page only
    }
  }

  clear() {
    this.kinds = {};
    if (!this.store) return;
    try {
      this.store.removeItem(KEY);
    } catch (error) {
      this.failed = true;
    }
  }
}

// -- the panel -----------------------------------------------------------------

let panels = 0;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function button(text, className) {
  const node = el('button', `loo-progress-button ${className}`, text);
  node.type = 'button';
  return node;
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function listed(items) {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function seedsText(seeds) {
  const sorted = [...seeds].sort((a, b) => a - b);
  const shown = sorted.slice(0, SEEDS_SHOWN).map(String);
  if (sorted.length > SEEDS_SHOWN) shown.push(`${sorted.length - SEEDS_SHOWN} more`);
  return `${sorted.length === 1 ? 'seed' : 'seeds'} ${listed(shown)}`;
}

function drawPanel(place, progress) {
  panels += 1;
  const id = `loo-progress-title-${panels}`;
  const panel = el('section', 'loo-progress-panel');
  panel.setAttribute('aria-labelledby', id);
  const title = el('h2', 'loo-progress-title', 'Solved in this browser');
  title.id = id;
  title.tabIndex = -1; // where the focus goes once the progress is forgotten
  const summary = el('p', 'loo-progress-summary');
  const list = el('ul', 'loo-progress-kinds');
  const note = el('p', 'loo-progress-note');
  const reset = button('Forget my progress…', 'loo-progress-reset');
  const ask = el('div', 'loo-progress-ask');
  ask.setAttribute('role', 'group');
  ask.hidden = true;
  const question = el('p', 'loo-progress-question',
    'Forget every exercise solved in this browser? This cannot be undone.');
  question.id = `loo-progress-question-${panels}`;
  ask.setAttribute('aria-labelledby', question.id);
  const yes = button('Yes, forget it', 'loo-progress-yes');
  const no = button('No, keep it', 'loo-progress-no');
  ask.append(question, yes, no);
  const status = el('p', 'loo-progress-status');
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  panel.append(title, summary, list, note, reset, ask, status);
  place.replaceChildren(panel);

  const show = () => {
    const kinds = Object.keys(progress.kinds).map(Number).sort((a, b) => a - b);
    const count = progress.count;
    summary.textContent = count
      ? `You have solved ${plural(count, 'variant', 'variants')} of `
        + `${plural(kinds.length, 'kind', 'kinds')} of exercise here.`
      : 'No exercise solved in this browser yet. Each one you solve is noted here, '
        + 'by kind and seed, and stays when you come back.';
    list.replaceChildren(...kinds.map((kind) => {
      const entry = progress.kinds[kind];
      const item = el('li', 'loo-progress-kind');
      item.append(el('strong', '', `Exercise ${kind}, ${entry.title}`),
        `: ${plural(entry.seeds.length, 'variant', 'variants')} (${seedsText(entry.seeds)})`);
      return item;
    }));
    list.hidden = !count;
    note.textContent = progress.failed
      ? 'This browser does not let the page keep anything (its storage is off, blocked or full), '
        + 'so what you solve is forgotten when you leave the page.'
      : 'It is kept in this browser only, and nothing is sent anywhere.';
    reset.hidden = !count || !ask.hidden;
  };
  const close = () => {
    ask.hidden = true;
    show();
    reset.focus();
  };
  reset.addEventListener('click', () => {
    ask.hidden = false;
    reset.hidden = true;
    status.textContent = '';
    no.focus();
  });
  no.addEventListener('click', close);
  ask.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
  yes.addEventListener('click', () => {
    progress.clear();
    ask.hidden = true;
    show();
    status.textContent = 'Your progress is forgotten: this browser keeps no solved exercise now.';
    title.focus();
  });
  show();
  return show;
}

// -- watching the page ---------------------------------------------------------

export function startProgress() {
  const progress = new Progress();
  const redraws = [];
  const seen = new Set(); // the marks of this visit already kept (forgetting does not bring them back)
  const redraw = () => redraws.forEach((show) => show());

  const placeNew = () => {
    for (const place of document.querySelectorAll(PLACE)) {
      if (place.dataset.looProgress) continue;
      place.dataset.looProgress = 'drawn';
      redraws.push(drawPanel(place, progress));
    }
  };
  const look = () => {
    const fresh = [];
    for (const line of document.querySelectorAll(`[${MARK}]`)) {
      if (line.closest(SAVED_COPY)) continue;
      for (const mark of readMarks(line.getAttribute(MARK))) {
        const name = `${mark.kind}:${mark.seed}`;
        if (!seen.has(name)) {
          seen.add(name);
          fresh.push(mark);
        }
      }
    }
    if (fresh.length && progress.add(fresh)) redraw();
    else if (fresh.length && progress.failed) redraw();
  };
  const start = () => {
    placeNew();
    look();
    new MutationObserver(() => {
      placeNew();
      look();
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: [MARK] });
    window.addEventListener('storage', (event) => {
      if (event.key !== KEY && event.key !== null) return;
      progress.reload();
      redraw();
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
  return progress;
}
