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
//
// Hand-in: the score line also lists, in data-loo-answers, every variant
// checked with its last answer, the answers-file items that decide its score
// (the checks up to the first right one, `solution_shown: yes` where the
// solution was shown first) and its outcome in the one score model
// (loo_tutor/teaching/score.py), all as Python made them. They are kept under
// a second key; the panel's score line counts those outcomes (so it lasts
// too) and "Download my answers" saves the items as an answers file, with
// the student's name asked once and kept, tagged with the assignment's id
// when the page was opened for one (the score line's data-loo-assignment).
// Then the panel's score counts the assignment's exercises (the score line's
// data-loo-assignment-items), each not checked here being "not answered", as
// `loo-tutor mark --key` counts them.
// Nothing leaves the browser except by that download; the teacher's
// `loo-tutor mark` judges every answer again and scores the items as the
// page did.
//
// Once the page is live, what was kept before this visit is given back to
// the page's score lines (giveBack: a message {kept: [...]} to each, which
// Scoreboard.resume reads): Python judges those items again, as `mark` reads
// a download, and scores them before this visit's checks with the one score
// model. The entries it writes then carry the earlier visits' items and the
// outcome of all of them, and each replaces the one kept: this script
// scores nothing itself.
//
// An assignment's link (exercises.html?assignment=…&items=…) is handed to
// the page's assignment widget (loo_tutor/widgets/assignment.py) as a reader
// pasting it would: its field gets the address's query.
//
// Try-its: a widget the reader has finished (played its deal to the end,
// stepped to its last step, answered it right, as the engine judged) takes
// the class loo-done (loo_tutor/widgets/_base.py, LooWidget.finish). The
// chapter it stands in, this page, is then kept as one whose try-it is done
// (under a third key: its address and its title), and the panel lists those
// chapters with a link to each.
import './progress.css';

const KEY = 'loo-tutor-progress';
const VERSION = 1;
const MARK = 'data-loo-solved';
const PLACE = '.loo-progress';
const SAVED_COPY = '.loo-snapshot'; // the page's saved widgets: their marks were not the reader's
const MOST_SEEDS = 1000; // kept per kind, at the most
const SEEDS_SHOWN = 12;
const ANSWERS_KEY = 'loo-tutor-answers';
const ANSWERS_MARK = 'data-loo-answers';
const MOST_TRIED = 1000; // variants whose answers are kept, at the most
const LONGEST_ANSWER = 4000; // characters of one answer written as JSON
const LONGEST_NAME = 200;
const MOST_ITEMS = 20; // answers-file items of one variant (the widget keeps no more)
const OUTCOMES = ['right at the first check', 'right after several checks', 'solution shown', 'wrong'];
const ASSIGNMENT_MARK = 'data-loo-assignment';
const ASSIGNMENT_ITEMS = 'data-loo-assignment-items';
const NOT_ANSWERED = 'not answered';
const ASSIGNMENT_FIELD = '.loo-assignment-link input';
const CHAPTERS_KEY = 'loo-tutor-chapters';
const DONE = '.loo-done';
const MOST_CHAPTERS = 200;

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

// JSON text read, or null when it is none.
function parsed(text) {
  try {
    return JSON.parse(text || 'null');
  } catch (error) {
    return null;
  }
}

// What is kept, checked entry by entry: {kinds: {kind: {title, seeds: [...]}}};
// anything that is not of that shape is left out.
function readKept(text) {
  const kinds = {};
  const data = parsed(text);
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
  const marks = parsed(text);
  if (!Array.isArray(marks)) return [];
  return marks.filter((m) => m && isKind(m.kind) && isSeed(m.seed) && typeof m.title === 'string');
}

// JSON of a value, or null when it cannot be written or is too long.
function json(value) {
  try {
    const text = JSON.stringify(value === undefined ? null : value);
    return text.length > LONGEST_ANSWER ? null : text;
  } catch (error) {
    return null;
  }
}

// One answers-file item of a variant, checked: {kind, seed, answer, time[, solution_shown]}.
function readItem(item, name, seed) {
  if (!item || item.kind !== name || item.seed !== seed || typeof item.time !== 'string'
      || item.time.length > 40) {
    return null;
  }
  const text = json(item.answer);
  if (text === null) return null;
  const kept = { kind: name, seed, answer: JSON.parse(text), time: item.time };
  if (item.solution_shown === 'yes') kept.solution_shown = 'yes';
  return kept;
}

// One variant's last answer, checked: {kind, name, seed, answer, time, solved, outcome, items},
// or null. An entry kept before outcomes were written is one check of its last answer.
function readTried(entry) {
  if (!entry || !isKind(entry.kind) || !isSeed(entry.seed) || typeof entry.name !== 'string'
      || !/^[a-z-]{1,20}$/.test(entry.name) || typeof entry.time !== 'string'
      || entry.time.length > 40) {
    return null;
  }
  const text = json(entry.answer);
  if (text === null) return null;
  const solved = entry.solved === true;
  const answer = JSON.parse(text);
  let items = Array.isArray(entry.items)
    ? entry.items.slice(0, MOST_ITEMS).map((item) => readItem(item, entry.name, entry.seed))
    : [];
  if (!items.length || items.includes(null)) {
    items = [{ kind: entry.name, seed: entry.seed, answer, time: entry.time }];
  }
  const outcome = OUTCOMES.includes(entry.outcome) ? entry.outcome
    : (solved ? OUTCOMES[0] : 'wrong');
  return {
    kind: entry.kind, name: entry.name, seed: entry.seed, answer, time: entry.time, solved,
    outcome, items,
  };
}

// The answers kept: {student, tried: [...]}, each entry checked as it is read.
function readAnswers(text) {
  const data = parsed(text);
  const kept = { student: '', assignment: '', exercises: [], tried: [] };
  if (!data || data.version !== VERSION) return kept;
  if (typeof data.student === 'string') kept.student = data.student.slice(0, LONGEST_NAME);
  if (typeof data.assignment === 'string') kept.assignment = readId(data.assignment);
  if (kept.assignment) kept.exercises = readExercises(data.exercises);
  if (Array.isArray(data.tried)) {
    kept.tried = data.tried.map(readTried).filter(Boolean).slice(-MOST_TRIED);
  }
  return kept;
}

// The answers of one score line, checked as those kept are.
function readAnswerMarks(text) {
  const marks = parsed(text);
  return Array.isArray(marks) ? marks.map(readTried).filter(Boolean) : [];
}

// An assignment's id as the widget writes it, or ''.
function readId(text) {
  return /^[A-Za-z0-9._-]{1,60}$/.test(text || '') ? text : '';
}

// An assignment's exercises, [[name, seed], ...] in its order, or [] when not of that shape.
function readExercises(list) {
  if (!Array.isArray(list) || list.length > MOST_TRIED) return [];
  const ok = list.every((pair) => Array.isArray(pair) && pair.length === 2
    && typeof pair[0] === 'string' && /^[a-z-]{1,20}$/.test(pair[0]) && isSeed(pair[1]));
  return ok ? list.map(([name, seed]) => [name, seed]) : [];
}

// The chapters whose try-it is done: {address: title}, each entry checked.
function readChapters(text) {
  const data = parsed(text);
  const chapters = {};
  if (!data || data.version !== VERSION || typeof data.chapters !== 'object' || !data.chapters) {
    return chapters;
  }
  for (const [address, title] of Object.entries(data.chapters).slice(0, MOST_CHAPTERS)) {
    if (typeof title === 'string' && address.startsWith('/') && address.length <= 500) {
      chapters[address] = title.slice(0, 200);
    }
  }
  return chapters;
}

// This page as a chapter: its address (without query or fragment) and its title.
function thisChapter() {
  const heading = document.querySelector('main h1, article h1, h1');
  let title = heading ? heading.textContent : document.title;
  title = title.replace(/[#¶]\s*$/u, '').replace(/\s+/g, ' ').trim() || document.title;
  return { address: window.location.pathname, title: title.slice(0, 200) };
}

class Progress {
  constructor() {
    this.store = storage();
    this.failed = !this.store;
    this.kinds = this.store ? readKept(this.store.getItem(KEY)) : {};
    this.answers = this.store ? readAnswers(this.store.getItem(ANSWERS_KEY)) : readAnswers('');
    this.chapters = this.store ? readChapters(this.store.getItem(CHAPTERS_KEY)) : {};
    this.earlier = [...this.answers.tried]; // what earlier visits kept, for giveBack
  }

  // Gives the page's score lines (``manager``'s widgets of class loo-score) the entries kept
  // before this visit, once the page is live; Python scores them with this visit's checks.
  giveBack(manager) {
    if (!this.earlier.length) return Promise.resolve();
    return manager.tell('loo-score', { kept: this.earlier }).catch((error) => {
      console.warn('the work kept in this browser could not be given back to the page:', error);
    });
  }

  reload() {
    if (!this.store) return;
    this.kinds = readKept(this.store.getItem(KEY));
    this.answers = readAnswers(this.store.getItem(ANSWERS_KEY));
    this.chapters = readChapters(this.store.getItem(CHAPTERS_KEY));
  }

  // Keeps ``chapter`` as one whose try-it is done; true if it was not kept yet.
  addChapter({ address, title }) {
    this.reload();
    if (this.chapters[address] === title) return false;
    this.chapters[address] = title;
    if (!this.store) return true;
    try {
      this.store.setItem(CHAPTERS_KEY, JSON.stringify({ version: VERSION, chapters: this.chapters }));
    } catch (error) {
      this.failed = true;
    }
    return true;
  }

  get tried() {
    return this.answers.tried;
  }

  // Keeps each variant's entry as Python last wrote it, in place of the one kept; true if any
  // changed. Python was given the earlier visits' entries (giveBack), so its entry holds
  // their items before this visit's and the outcome of them all in the one score model.
  addAnswers(entries) {
    this.reload();
    let changed = false;
    for (const entry of entries) {
      const tried = this.answers.tried;
      const at = tried.findIndex((t) => t.kind === entry.kind && t.seed === entry.seed);
      const kept = at >= 0 ? tried[at] : null;
      if (kept && kept.time === entry.time && kept.outcome === entry.outcome
          && JSON.stringify(kept.answer) === JSON.stringify(entry.answer)
          && JSON.stringify(kept.items) === JSON.stringify(entry.items)) {
        continue;
      }
      if (at >= 0) tried.splice(at, 1);
      tried.push(entry);
      if (tried.length > MOST_TRIED) tried.shift();
      changed = true;
    }
    if (changed) this.saveAnswers();
    return changed;
  }

  // The assignment the page was opened for ('' for none) and its exercises; true if either
  // changed.
  setAssignment(id, exercises) {
    this.reload();
    const listed = id ? exercises : [];
    if (this.answers.assignment === id
        && JSON.stringify(this.answers.exercises) === JSON.stringify(listed)) return false;
    this.answers.assignment = id;
    this.answers.exercises = listed;
    this.saveAnswers();
    return true;
  }

  // The outcome of each exercise counted: the assignment's, or else every one checked here.
  get outcomes() {
    const { exercises, tried } = this.answers;
    if (!exercises.length) return tried.map((entry) => entry.outcome);
    return exercises.map(([name, seed]) => {
      const entry = tried.find((t) => t.name === name && t.seed === seed);
      return entry ? entry.outcome : NOT_ANSWERED;
    });
  }

  set student(name) {
    this.reload();
    this.answers.student = name.slice(0, LONGEST_NAME);
    this.saveAnswers();
  }

  get student() {
    return this.answers.student;
  }

  saveAnswers() {
    if (!this.store) return;
    try {
      this.store.setItem(ANSWERS_KEY, JSON.stringify({ version: VERSION, ...this.answers }));
    } catch (error) {
      this.failed = true;
    }
  }

  // The answers file `loo-tutor mark` reads: {student[, assignment], answers: [{kind, seed,
  // answer, time[, solution_shown]}]}, each variant's items in turn.
  answersFile() {
    const head = { student: this.student };
    if (this.answers.assignment) head.assignment = this.answers.assignment;
    const answers = this.tried.flatMap((entry) => entry.items);
    return `${JSON.stringify({ ...head, answers }, null, 1)}\n`;
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
    this.answers.tried = [];
    this.chapters = {};
    if (!this.store) return;
    try {
      this.store.removeItem(KEY);
      this.store.removeItem(CHAPTERS_KEY);
    } catch (error) {
      this.failed = true;
    }
    this.saveAnswers(); // the student's name stays
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
  const chaptersLine = el('p', 'loo-progress-tried');
  const chapters = el('ul', 'loo-progress-chapters');
  const note = el('p', 'loo-progress-note');
  const reset = button('Forget my progress…', 'loo-progress-reset');
  const ask = el('div', 'loo-progress-ask');
  ask.setAttribute('role', 'group');
  ask.hidden = true;
  const question = el('p', 'loo-progress-question',
    'Forget every exercise solved in this browser, every try-it finished, and the answers kept '
    + 'for you to hand in? This cannot be undone.');
  question.id = `loo-progress-question-${panels}`;
  ask.setAttribute('aria-labelledby', question.id);
  const yes = button('Yes, forget it', 'loo-progress-yes');
  const no = button('No, keep it', 'loo-progress-no');
  ask.append(question, yes, no);
  const status = el('p', 'loo-progress-status');
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  const score = el('p', 'loo-progress-score');
  const handIn = el('div', 'loo-progress-hand-in');
  const name = el('input', 'loo-progress-name');
  name.id = `loo-progress-name-${panels}`;
  name.type = 'text';
  name.autocomplete = 'name';
  name.maxLength = LONGEST_NAME;
  name.value = progress.student;
  const nameLabel = el('label', 'loo-progress-name-label', 'Your name, as your teacher will see it');
  nameLabel.htmlFor = name.id;
  const download = button('Download my answers', 'loo-progress-download');
  handIn.append(nameLabel, name, download);
  panel.append(title, chaptersLine, chapters, summary, list, score, handIn, note, reset, ask, status);
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
    const done = Object.entries(progress.chapters)
      .sort(([, a], [, b]) => a.localeCompare(b));
    chaptersLine.textContent = done.length
      ? `Try-its finished here: ${plural(done.length, 'chapter', 'chapters')}.`
      : 'No try-it finished in this browser yet. Play a chapter\'s live deal to its end, or '
        + 'answer its trainer right, and the chapter is noted here.';
    chapters.replaceChildren(...done.map(([address, name]) => {
      const item = el('li', 'loo-progress-chapter');
      const link = el('a', '', name);
      link.href = address;
      item.append(link, ': try-it done ✓');
      return item;
    }));
    chapters.hidden = !done.length;
    const { tried } = progress;
    const counted = progress.outcomes;
    const solved = counted.filter((outcome) => OUTCOMES.slice(0, 2).includes(outcome)).length;
    const outcomes = [...OUTCOMES, NOT_ANSWERED]
      .map((outcome) => [counted.filter((one) => one === outcome).length, outcome])
      .filter(([n]) => n).map(([n, outcome]) => `${n} ${outcome}`);
    score.textContent = tried.length
      ? `Score kept in this browser: ${solved} of ${counted.length} right: ${outcomes.join(', ')}. `
        + 'Your answers to each are kept, ready to hand in.'
      : 'Once you check an exercise, your answers to it are kept here, ready to hand in.';
    handIn.hidden = !tried.length;
    if (document.activeElement !== name) name.value = progress.student;
    note.textContent = progress.failed
      ? 'This browser does not let the page keep anything (its storage is off, blocked or full), '
        + 'so what you solve is forgotten when you leave the page.'
      : 'It is kept in this browser only, and nothing is sent anywhere: your answers leave it '
        + 'only as the file you download.';
    reset.hidden = !(count || progress.tried.length || done.length) || !ask.hidden;
  };
  const close = () => {
    ask.hidden = true;
    show();
    reset.focus();
  };
  name.addEventListener('change', () => {
    progress.student = name.value.trim();
  });
  download.addEventListener('click', () => {
    const student = name.value.trim();
    if (!student) {
      status.textContent = 'Write your name first: your teacher sees it in the file.';
      name.focus();
      return;
    }
    progress.student = student;
    const file = `answers-${student.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'student'}.json`;
    const link = el('a');
    link.href = URL.createObjectURL(new Blob([progress.answersFile()], { type: 'application/json' }));
    link.download = file;
    link.hidden = true;
    panel.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    status.textContent = `Your answers are saved as ${file}: hand that file to your teacher.`;
  });
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
    status.textContent = 'Your progress is forgotten: this browser keeps no solved exercise '
      + 'and no finished try-it now.';
    title.focus();
  });
  show();
  return show;
}

// -- watching the page ---------------------------------------------------------

// Hands an assignment's link to the page's assignment widget, once, as a reader pasting it.
function openAssignment() {
  if (!new URLSearchParams(window.location.search).has('assignment')) return;
  for (const field of document.querySelectorAll(ASSIGNMENT_FIELD)) {
    if (field.closest(SAVED_COPY) || field.dataset.looAssignment) continue;
    field.dataset.looAssignment = 'given';
    field.value = window.location.search;
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

export function startProgress() {
  const progress = new Progress();
  const redraws = [];
  const seen = new Set(); // the marks and answers of this visit already kept (forgetting does not bring them back)
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
    const answers = [];
    for (const line of document.querySelectorAll(`[${ANSWERS_MARK}]`)) {
      if (line.closest(SAVED_COPY)) continue;
      for (const entry of readAnswerMarks(line.getAttribute(ANSWERS_MARK))) {
        // the whole entry: one check can redraw the line twice, its answer and time first
        const name = `answer ${JSON.stringify(entry)}`;
        if (!seen.has(name)) {
          seen.add(name);
          answers.push(entry);
        }
      }
    }
    let tagged = false;
    const live = [...document.querySelectorAll('.loo-score-line')].find((line) => !line.closest(SAVED_COPY));
    if (live) {
      tagged = progress.setAssignment(readId(live.getAttribute(ASSIGNMENT_MARK)),
        readExercises(parsed(live.getAttribute(ASSIGNMENT_ITEMS))));
    }
    openAssignment();
    const added = fresh.length > 0 && progress.add(fresh);
    const answered = answers.length > 0 && progress.addAnswers(answers);
    let finished = false;
    if (!seen.has('this chapter')
        && [...document.querySelectorAll(DONE)].some((done) => !done.closest(SAVED_COPY))) {
      seen.add('this chapter');
      finished = progress.addChapter(thisChapter()) || progress.failed;
    }
    if (added || answered || finished || tagged
        || ((fresh.length || answers.length) && progress.failed)) redraw();
  };
  const start = () => {
    placeNew();
    look();
    new MutationObserver(() => {
      placeNew();
      look();
    }).observe(document.body, {
      subtree: true, childList: true, attributes: true,
      attributeFilter: [MARK, ANSWERS_MARK, ASSIGNMENT_MARK, ASSIGNMENT_ITEMS, 'class'],
    });
    window.addEventListener('storage', (event) => {
      if (![KEY, ANSWERS_KEY, CHAPTERS_KEY, null].includes(event.key)) return;
      progress.reload();
      redraw();
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
  return progress;
}
