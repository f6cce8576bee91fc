// The student's work on the classroom page's exercises, kept across a
// reload: the page reloads itself when the server was restarted (its kernel
// is gone), and a student may reload it too.
//
// As the page goes, each exercise's variant (its seed field) and the values
// of its answer controls (its .loo-form: check boxes, menus, text fields, in
// the order of the form) are kept in this tab's sessionStorage. Once the
// reloaded page is live, each exercise is sent its work back as a message
// to its Python (ExerciseWidget.restore in loo_tutor/widgets/exercise.py),
// which shows the variant and sets the controls.
//
// A Check pressed while the page's kernel is not connected cannot be judged
// then: the exercise says that its check waits for the server, and its last
// verdict is hidden, being about other answers. The check is kept with the
// work, and the restored exercise checks it as soon as the server is back;
// the classroom's bar then sends it to be kept (classbook.js).

const KEY = `loo-classroom-work:${location.pathname}`;
const EXERCISE = '.loo-exercise';
const CONTROLS = 'input[type="checkbox"], select, input[type="text"]';
const PENDING = 'data-loo-pending';
export const WAITING_CHECK = 'Your check waits for the server: it is judged and kept as soon '
  + 'as the server is back, and this page opens again by itself with your answers.';

function places() {
  return [...document.querySelectorAll('[data-loo-model-id]')];
}

function workOf(place) {
  const exercise = place.querySelector(EXERCISE);
  const form = exercise && exercise.querySelector('.loo-form');
  if (!form) return null;
  const seed = exercise.querySelector('.loo-seed input');
  const values = [...form.querySelectorAll(CONTROLS)].map((control) => {
    if (control.type === 'checkbox') return control.checked;
    return control.tagName === 'SELECT' ? control.selectedIndex : control.value;
  });
  return { seed: seed ? Number(seed.value) : null, values, check: exercise.hasAttribute(PENDING) };
}

function live() {
  return document.documentElement.dataset.looClassroom === 'live';
}

// Keeps every exercise's work in this tab, for the page that opens next here.
export function saveWork() {
  if (!live()) return; // nothing drawn yet: the work kept before stays
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(places().map(workOf)));
  } catch (error) {
    // storage off or full: the work is lost with the page, as without this
  }
}

// Sends each exercise of the live page the work kept for it, once.
export async function restoreWork(manager) {
  let kept = null;
  try {
    kept = JSON.parse(window.sessionStorage.getItem(KEY) || 'null');
    window.sessionStorage.removeItem(KEY);
  } catch (error) {
    return;
  }
  if (!Array.isArray(kept)) return;
  const all = places();
  await Promise.all(kept.map(async (work, i) => {
    const place = all[i];
    if (!work || !Array.isArray(work.values) || !place) return;
    try {
      const model = await manager.get_model(place.dataset.looModelId);
      if (!(model.get('_dom_classes') || []).includes('loo-exercise')) return;
      model.send({ restore: { seed: work.seed, values: work.values, check: work.check === true } });
    } catch (error) {
      console.warn('an exercise could not be given its work back:', error);
    }
  }));
}

function waitingLine(exercise) {
  let line = exercise.querySelector('.loo-pending');
  if (!line) {
    line = document.createElement('p');
    line.className = 'loo-pending';
    line.setAttribute('role', 'status');
    line.textContent = WAITING_CHECK;
    const buttons = exercise.querySelector('.loo-check');
    (buttons && buttons.closest('.widget-hbox') ? buttons.closest('.widget-hbox') : exercise)
      .after(line);
  }
  return line;
}

// A Check pressed while ``connected()`` is false waits, said on its exercise.
export function holdChecks(connected) {
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element && event.target.closest('.loo-check');
    const exercise = button && button.closest(EXERCISE);
    if (!exercise || connected()) return;
    exercise.setAttribute(PENDING, 'check');
    waitingLine(exercise);
  }, true);
}
