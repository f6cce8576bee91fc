// The classroom page's connection to the kernel Voila started for it:
// Jupyter's messages over the server's kernel websocket.
import { Connection } from './connection.js';

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

export class Kernel extends Connection {
  constructor({ baseUrl, kernelId, token }) {
    super();
    this.id = kernelId;
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
      socket.onmessage = (event) => this.deliver(unpack(event.data));
      this.socket = socket;
    });
  }

  transmit(msg) {
    if (this.socket.readyState !== WebSocket.OPEN) throw new Error('the kernel is not connected');
    this.socket.send(pack(msg));
  }
}
