// A page's connection to the Python that runs its widgets, whatever carries
// the messages (the classroom server's kernel websocket, or the Web Worker
// of a live book page): Jupyter's messages, comms for the widgets, and the
// replies and output routed back to whoever sent the request. A subclass
// sends a message with ``transmit(msg)`` and hands each message it gets to
// ``deliver(msg)``.

const PROTOCOL = '5.3';

// The requests of the page that Python has not finished with (no "idle"
// status for them yet), whatever connection carries them; their number is
// on <html data-loo-waiting>, "0" once Python has answered every press, so
// that a test waits on Python's answer rather than for a guessed time.
const waiting = new Set();

function noteWaiting() {
  if (typeof document !== 'undefined') document.documentElement.dataset.looWaiting = String(waiting.size);
}

export function uuid() {
  return crypto.randomUUID ? crypto.randomUUID().replace(/-/g, '')
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

// A widget's end of a comm, as the widget manager expects it (IClassicComm).
class Comm {
  constructor(connection, commId, targetName) {
    this.connection = connection;
    this.comm_id = commId;
    this.target_name = targetName;
    this._onMsg = null;
    this._onClose = null;
  }

  open(data, callbacks, metadata, buffers) {
    return this.connection.send('comm_open', { comm_id: this.comm_id, target_name: this.target_name, data },
      callbacks, metadata, buffers);
  }

  send(data, callbacks, metadata, buffers) {
    return this.connection.send('comm_msg', { comm_id: this.comm_id, data }, callbacks, metadata, buffers);
  }

  close(data, callbacks, metadata, buffers) {
    this.connection.comms.delete(this.comm_id);
    return this.connection.send('comm_close', { comm_id: this.comm_id, data: data || {} },
      callbacks, metadata, buffers);
  }

  on_msg(callback) { this._onMsg = callback; }

  on_close(callback) { this._onClose = callback; }
}

export class Connection {
  constructor() {
    this.session = uuid();
    this.comms = new Map();
    // Called with (comm, msg) when Python opens a comm (a new widget).
    this.onCommOpen = null;
    // Called with a display_data message nobody asked for: a widget that a
    // cell shows.
    this.onDisplay = null;
    this._callbacks = new Map();
    this._replies = new Map();
    this._hooks = new Map();
    this._queue = Promise.resolve();
  }

  // Hands ``msg`` over to Python (implemented by each kind of connection).
  transmit(msg) {
    throw new Error(`${this.constructor.name} cannot send ${msg.header.msg_type}`);
  }

  // One message at a time, each after the last is handled: a widget's
  // comm_open is handled (its model made) before the messages that follow
  // it, which may be meant for that model, as JupyterLab does.
  deliver(msg) {
    this._queue = this._queue.then(() => this._receive(msg))
      .catch((error) => console.error('a message from Python could not be handled:', error));
    return this._queue;
  }

  // Resolves once every message delivered so far is handled.
  idle() {
    return this._queue;
  }

  // Sends a request; ``callbacks`` as ipywidgets gives them: iopub.status,
  // iopub.output, iopub.clear_output and shell.reply.
  send(msgType, content, callbacks, metadata, buffers, channel = 'shell') {
    const msgId = uuid();
    const msg = {
      header: { msg_id: msgId, msg_type: msgType, session: this.session, username: '',
        date: new Date().toISOString(), version: PROTOCOL },
      parent_header: {}, metadata: metadata || {}, content, channel, buffers: buffers || [],
    };
    if (callbacks && (callbacks.iopub || callbacks.shell)) this._callbacks.set(msgId, callbacks);
    waiting.add(msgId);
    noteWaiting();
    this.transmit(msg);
    return msgId;
  }

  // Sends a request and resolves with its reply.
  request(msgType, content) {
    return new Promise((resolve) => {
      const msgId = this.send(msgType, content);
      this._replies.set(msgId, resolve);
    });
  }

  createComm(targetName, commId = uuid()) {
    const comm = new Comm(this, commId, targetName);
    this.comms.set(commId, comm);
    return comm;
  }

  // Output with ``msgId`` as its parent goes to ``hook`` instead (an Output widget's capture).
  addHook(msgId, hook) { this._hooks.set(msgId, hook); }

  removeHook(msgId, hook) {
    if (this._hooks.get(msgId) === hook) this._hooks.delete(msgId);
  }

  _receive(msg) {
    const parent = (msg.parent_header || {}).msg_id;
    const type = msg.header.msg_type;
    const content = msg.content;
    if (type === 'status' && content.execution_state === 'idle' && waiting.delete(parent)) noteWaiting();
    if (msg.channel === 'shell' || msg.channel === 'control') {
      const resolve = this._replies.get(parent);
      if (resolve) {
        this._replies.delete(parent);
        resolve(msg);
      }
      const callbacks = this._callbacks.get(parent);
      if (callbacks && callbacks.shell && callbacks.shell.reply) callbacks.shell.reply(msg);
      return undefined;
    }
    if (msg.channel !== 'iopub') return undefined;
    if (type === 'comm_open') {
      const comm = this.createComm(content.target_name, content.comm_id);
      return this.onCommOpen ? this.onCommOpen(comm, msg) : undefined;
    }
    if (type === 'comm_msg' || type === 'comm_close') {
      const comm = this.comms.get(content.comm_id);
      if (!comm) return undefined;
      if (type === 'comm_close') {
        this.comms.delete(content.comm_id);
        if (comm._onClose) comm._onClose(msg);
      } else if (comm._onMsg) {
        comm._onMsg(msg);
      }
      return undefined;
    }
    const hook = this._hooks.get(parent);
    if (hook && type !== 'status' && hook(msg) === false) return undefined;
    const callbacks = this._callbacks.get(parent);
    const iopub = (callbacks && callbacks.iopub) || {};
    // An error nobody shows (a widget's callback failed): the console shows it.
    if (type === 'error' && !iopub.output) {
      console.error(`Python: ${(content.traceback || []).join('\n') || content.evalue}`);
    }
    if (!callbacks || !callbacks.iopub) {
      if (type === 'status' && content.execution_state === 'idle') this._callbacks.delete(parent);
      if (type === 'display_data' && this.onDisplay) return this.onDisplay(msg);
      return undefined;
    }
    if (type === 'status') {
      if (iopub.status) iopub.status(msg);
      if (content.execution_state === 'idle') this._callbacks.delete(parent);
    } else if (type === 'clear_output') {
      if (iopub.clear_output) iopub.clear_output(msg);
    } else if (['display_data', 'execute_result', 'stream', 'error'].includes(type) && iopub.output) {
      iopub.output(msg);
    }
    return undefined;
  }
}
