// The Output widget: it keeps what the kernel shows while the widget's
// msg_id names the request being run (the kernel sets it around a ``with
// out:`` block), and draws that output with a small renderer of the usual
// kinds (text, HTML, SVG, PNG and JPEG images, errors, other widgets).
import * as output from '@jupyter-widgets/output';
import { Widget as LuminoWidget } from '@lumino/widgets';

const ESCAPES = /\u001b\[[0-9;]*[A-Za-z]/g;
const ORDER = ['application/vnd.jupyter.widget-view+json', 'text/html', 'image/svg+xml',
  'image/png', 'image/jpeg', 'text/markdown', 'text/latex', 'text/plain'];
const SHOWN = { display_data: true, execute_result: true, stream: true, error: true };

export class OutputModel extends output.OutputModel {
  initialize(attributes, options) {
    super.initialize(attributes, options);
    this._hook = (msg) => this._capture(msg);
    this._hooked = '';
    this._clearPending = false;
    this.listenTo(this, 'change:msg_id', this._watch);
    this._watch();
  }

  _watch() {
    const connection = this.widget_manager.connection;
    if (this._hooked) connection.removeHook(this._hooked, this._hook);
    this._hooked = this.get('msg_id') || '';
    if (this._hooked) connection.addHook(this._hooked, this._hook);
  }

  _capture(msg) {
    const type = msg.header.msg_type;
    const content = msg.content;
    if (type === 'clear_output') {
      if (content.wait) this._clearPending = true;
      else this._store([]);
      return false;
    }
    if (!SHOWN[type]) return true;
    let outputs = this._clearPending ? [] : [...(this.get('outputs') || [])];
    this._clearPending = false;
    const last = outputs[outputs.length - 1];
    if (type === 'stream' && last && last.output_type === 'stream' && last.name === content.name) {
      outputs[outputs.length - 1] = { ...last, text: last.text + content.text };
    } else {
      outputs = [...outputs, { output_type: type, ...content }];
    }
    this._store(outputs);
    return false;
  }

  _store(outputs) {
    this.set('outputs', outputs);
    this.save_changes();
  }

  close(comm_closed) {
    if (this._hooked) this.widget_manager.connection.removeHook(this._hooked, this._hook);
    return super.close(comm_closed);
  }
}

export class OutputView extends output.OutputView {
  render() {
    super.render();
    this.el.classList.add('jupyter-widgets-output-area');
    this._children = [];
    this.listenTo(this.model, 'change:outputs', this._draw);
    this._draw();
  }

  _draw() {
    for (const child of this._children) child.remove();
    this._children = [];
    this.el.textContent = '';
    for (const item of this.model.get('outputs') || []) {
      const box = document.createElement('div');
      box.className = 'jp-OutputArea-output';
      this.el.appendChild(box);
      this._drawOne(item, box);
    }
  }

  _drawOne(item, box) {
    if (item.output_type === 'stream') {
      box.appendChild(text(item.text, item.name === 'stderr' ? 'stderr' : 'stdout'));
      return;
    }
    if (item.output_type === 'error') {
      box.appendChild(text((item.traceback || [`${item.ename}: ${item.evalue}`]).join('\n'), 'stderr'));
      return;
    }
    const data = item.data || {};
    const mime = ORDER.find((type) => type in data);
    if (!mime) return;
    const value = data[mime];
    if (mime === 'application/vnd.jupyter.widget-view+json') {
      this.model.widget_manager.get_model(value.model_id)
        .then((model) => this.create_child_view(model))
        .then((view) => {
          this._children.push(view);
          if (box.isConnected) LuminoWidget.attach(view.luminoWidget, box);
          else box.appendChild(view.el);
        })
        .catch((error) => box.appendChild(text(`The widget could not be shown: ${error}`, 'stderr')));
    } else if (mime === 'text/html' || mime === 'image/svg+xml') {
      box.innerHTML = joined(value);
    } else if (mime === 'image/png' || mime === 'image/jpeg') {
      const image = document.createElement('img');
      image.src = `data:${mime};base64,${joined(value).replace(/\s/g, '')}`;
      image.alt = 'text/plain' in data ? joined(data['text/plain']) : 'an image';
      const size = (item.metadata || {})[mime] || {};
      if (size.width) image.width = size.width;
      if (size.height) image.height = size.height;
      box.appendChild(image);
    } else {
      box.appendChild(text(joined(value), 'stdout'));
    }
  }

  remove() {
    for (const child of this._children || []) child.remove();
    return super.remove();
  }
}

function joined(value) {
  return Array.isArray(value) ? value.join('') : String(value);
}

function text(value, stream) {
  const pre = document.createElement('pre');
  pre.className = 'jp-RenderedText';
  pre.dataset.mimeType = `application/vnd.jupyter.${stream}`;
  pre.textContent = joined(value).replace(ESCAPES, '');
  return pre;
}
