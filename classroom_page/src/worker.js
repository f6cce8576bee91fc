// The live book page's connection to the Python of its Web Worker
// (live-worker.js): Jupyter's messages, posted both ways.
import { Connection } from './connection.js';

export class WorkerConnection extends Connection {
  constructor(worker) {
    super();
    this.worker = worker;
  }

  transmit(msg) {
    this.worker.postMessage(msg);
  }
}
