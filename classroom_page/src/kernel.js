// The page's connection to the kernel Voila started for it: Jupyter's
// messages over the server's kernel websocket, comms for the widgets, and the
// replies and output routed back to whoever sent the request.

const PROTOCOL = '5.3';

function uuid() {
  return crypto.randomUUID ? crypto.randomUUID().replace(/-/g, '')
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function bytes(buffer) {
  if (buffer instanceof ArrayBuffer) return new Uint8Array(buffer);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

// Messages travel in the kernel websocket protocol "v1.kernel.websocket.jupyter.org"
// (JupyterLab's): one binary frame of the count of offsets, the offsets (all
// 8-byte little-endian numbers), the channel's name, the header, parent
// header, metadata and content as JSON, then each buffer. (Voila's websocket
// reads any binary frame it sends in this form, so the older form, JSON text
// with big-endian binary frames for buffers, must not be used: Voila would
// read a buffer's frame as a count of billions.)
export const SUBPROTOCOL = 'v1.kernel.websocket.jupyter.org';

export function pack(msg) {
  const encoder = new TextEncoder();
  const parts = [msg.channel, msg.header, msg.parent_header || {}, msg.metadata || {}, msg.content]
    .map((part, i) => encoder.encode(i === 0 ? part : JSON.stringify(part)));
  parts.push(...(msg.buffers || []).map(bytes));
  const count = parts.length + 1;
  const offsets = [8 * (1 + count)];
  for (const part of parts) offsets.push(offsets[offsets.length - 1] + part.byteLength);
  const frame = new Uint8Array(offsets[offsets.length - 1]);
  const view = new DataView(frame.buffer);
  view.setBigUint64(0, BigInt(count), true);
  offsets.forEach((offset, i) => view.setBigUint64(8 * (i + 1), BigInt(offset), true));
  parts.forEach((part, i) => frame.set(part, offsets[i]));
  return frame.buffer;
}

export function unpack(frame) {
  const view = new DataView(frame);
  const count = Number(view.getBigUint64(0, true));
  const offsets = [];
  for (let i = 1; i <= count; i++) offsets.push(Number(view.getBigUint64(8 * i, true)));
  const decoder = new TextDecoder();
  const part = (i) => decoder.decode(new Uint8Array(frame, offsets[i], offsets[i + 1] - offsets[i]));
  const msg = { channel: part(0), header: JSON.parse(part(1)), parent_header: JSON.parse(part(2)),
    metadata: JSON.parse(part(3)), content: JSON.parse(part(4)), buffers: [] };
  for (let i = 5; i < count - 1; i++) msg.buffers.push(new DataView(frame, offsets[i], offsets[i + 1] - offsets[i]));
  return msg;
}

// A widget's end of a comm, as the widget manager expects it (IClassicComm).
class Comm {
  constructor(kernel, commId, targetName) {
    this.kernel = kernel;
    this.comm_id = commId;
    this.target_name = targetName;
    this._onMsg = null;
    this._onClose = null;
  }

  open(data, callbacks, metadata, buffers) {
    return this.kernel.send('comm_open', { comm_id: this.comm_id, target_name: this.target_name, data },
      callbacks, metadata, buffers);
  }

  send(data, callbacks, metadata, buffers) {
    return this.kernel.send('comm_msg', { comm_id: this.comm_id, data }, callbacks, metadata, buffers);
  }

  close(data, callbacks, metadata, buffers) {
    this.kernel.comms.delete(this.comm_id);
    return this.kernel.send('comm_close', { comm_id: this.comm_id, data: data || {} },
      callbacks, metadata, buffers);
  }

  on_msg(callback) { this._onMsg = callback; }

  on_close(callback) { this._onClose = callback; }
}

export class Kernel {
  constructor({ baseUrl, kernelId, token }) {
    this.id = kernelId;
    this.session = uuid();
    this.comms = new Map();
    this.onCommOpen = null;
    this._callbacks = new Map();
    this._replies = new Map();
    this._hooks = new Map();
    this._queue = Promise.resolve();
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const query = new URLSearchParams({ session_id: this.session });
    if (token) query.set('token', token);
    this.url = `${scheme}//${location.host}${baseUrl}api/kernels/${encodeURIComponent(kernelId)}/channels?${query}`;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url, SUBPROTOCOL);
      socket.binaryType = 'arraybuffer';
      socket.onopen = () => resolve(this);
      socket.onerror = () => reject(new Error('the connection to the server failed'));
      socket.onclose = (event) => {
        reject(new Error(`the server closed the connection (${event.code})`));
        if (this.onClose) this.onClose(event);
      };
      // One message at a time, each after the last is handled: a widget's
      // comm_open is handled (its model made) before the messages that follow
      // it, which may be meant for that model, as JupyterLab does.
      socket.onmessage = (event) => {
        const msg = unpack(event.data);
        this._queue = this._queue.then(() => this._receive(msg))
          .catch((error) => console.error('a kernel message could not be handled:', error));
      };
      this.socket = socket;
    });
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
    if (this.socket.readyState !== WebSocket.OPEN) throw new Error('the kernel is not connected');
    this.socket.send(pack(msg));
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
    if (msg.channel === 'shell' || msg.channel === 'control') {
      const resolve = this._replies.get(parent);
      if (resolve) {
        this._replies.delete(parent);
        resolve(msg);
      }
      const callbacks = this._callbacks.get(parent);
      if (callbacks && callbacks.shell && callbacks.shell.reply) callbacks.shell.reply(msg);
      return;
    }
    if (msg.channel !== 'iopub') return;
    if (type === 'comm_open') {
      const comm = this.createComm(content.target_name, content.comm_id);
      return this.onCommOpen ? this.onCommOpen(comm, msg) : undefined;
    }
    if (type === 'comm_msg' || type === 'comm_close') {
      const comm = this.comms.get(content.comm_id);
      if (!comm) return;
      if (type === 'comm_close') {
        this.comms.delete(content.comm_id);
        if (comm._onClose) comm._onClose(msg);
      } else if (comm._onMsg) {
        comm._onMsg(msg);
      }
      return;
    }
    const hook = this._hooks.get(parent);
    if (hook && type !== 'status' && hook(msg) === false) return;
    const callbacks = this._callbacks.get(parent);
    if (!callbacks || !callbacks.iopub) {
      if (type === 'status' && content.execution_state === 'idle') this._callbacks.delete(parent);
      return;
    }
    const iopub = callbacks.iopub;
    if (type === 'status') {
      if (iopub.status) iopub.status(msg);
      if (content.execution_state === 'idle') this._callbacks.delete(parent);
    } else if (type === 'clear_output') {
      if (iopub.clear_output) iopub.clear_output(msg);
    } else if (['display_data', 'execute_result', 'stream', 'error'].includes(type) && iopub.output) {
      iopub.output(msg);
    }
  }
}
