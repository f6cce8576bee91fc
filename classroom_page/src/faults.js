// What the classroom page does when its Python stops on the server (a
// kernel that died, or was stopped, while the page was open): the server
// starts a fresh one under the same name, which knows nothing of the page's
// widgets, so the deal on the page is gone. The page says so in plain words
// instead of letting clicks go unanswered, keeps what it shows readable but
// out of reach, and offers a fresh start.

const LOST_STATES = new Set(['restarting', 'dead']);

export const LOST_MESSAGE = 'The server stopped the Python that ran this page, so the deal on it '
  + 'is lost. Start again for a fresh one; your exercises solved so far are kept.';

function showLost() {
  if (document.querySelector('.loo-kernel-lost')) return;
  const box = document.createElement('div');
  box.className = 'loo-kernel-lost';
  box.setAttribute('role', 'alert');
  const line = document.createElement('p');
  line.textContent = LOST_MESSAGE;
  const again = document.createElement('button');
  again.type = 'button';
  again.textContent = 'Start again';
  again.addEventListener('click', () => location.reload());
  box.append(line, again);
  document.body.prepend(box);
  const cells = document.getElementById('rendered_cells');
  if (cells) cells.inert = true;
  again.focus();
}

// Watches ``kernel`` (a Connection) for the server saying its Python stopped.
export function watchKernel(kernel) {
  const deliver = kernel.deliver.bind(kernel);
  kernel.deliver = (msg) => {
    if (msg.channel === 'iopub' && msg.header.msg_type === 'status'
        && LOST_STATES.has(msg.content.execution_state)) {
      showLost();
    }
    return deliver(msg);
  };
}
