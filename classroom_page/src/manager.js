// The widget manager of both kinds of page (the classroom's and the live
// book page's): it makes each widget's model when Python opens its comm, and
// draws a widget's view where the page keeps a place for it. The models and
// views come from npm's widget packages, bundled with the page's script.
import * as base from '@jupyter-widgets/base';
import { ManagerBase, base64ToBuffer } from '@jupyter-widgets/base-manager';
import * as controls from '@jupyter-widgets/controls';
import { Widget as LuminoWidget } from '@lumino/widgets';
import { OutputModel, OutputView } from './output.js';

const MODULES = {
  '@jupyter-widgets/base': base,
  '@jupyter-widgets/controls': controls,
  '@jupyter-widgets/output': { OutputModel, OutputView },
};

export class WidgetManager extends ManagerBase {
  // ``connection``: a Connection (./connection.js) to the Python that runs the widgets.
  constructor(connection) {
    super();
    this.connection = connection;
    connection.onCommOpen = (comm, msg) => (comm.target_name === this.comm_target_name
      ? this.handle_comm_open(comm, msg) : undefined);
  }

  async loadClass(className, moduleName, moduleVersion) {
    const found = (MODULES[moduleName] || {})[className];
    if (!found) {
      throw new Error(`the widget ${className} of ${moduleName} ${moduleVersion} is not part of this page's script`);
    }
    return found;
  }

  async _create_comm(targetName, modelId, data, metadata, buffers) {
    const comm = this.connection.createComm(targetName, modelId);
    if (data || metadata) comm.open(data, undefined, metadata, buffers);
    return comm;
  }

  async _get_comm_info() {
    const reply = await this.connection.request('comm_info_request', { target_name: this.comm_target_name });
    return reply.content.status === 'ok' ? reply.content.comms : {};
  }

  // Makes the models of ``saved``, a widget state in a notebook's format,
  // whose widgets Python holds already (a live book page's, made when the
  // book was built): each model gets its comm, as if Python had just opened
  // it, and no message is sent.
  restore(saved) {
    return Promise.all(Object.entries(saved.state).map(([modelId, model]) => {
      const buffers = model.buffers || [];
      base.put_buffers(model.state, buffers.map((b) => b.path),
        buffers.map((b) => new DataView(base64ToBuffer(b.data))));
      return this.new_model({
        model_id: modelId,
        model_name: model.model_name,
        model_module: model.model_module,
        model_module_version: model.model_module_version,
        comm: this.connection.createComm(this.comm_target_name, modelId),
      }, model.state);
    }));
  }

  // Loads every widget the kernel holds (protected in ManagerBase).
  load() {
    return this._loadFromKernel();
  }

  // Every view, as the widget packages make it; a part that says verdicts and
  // hints (the class loo-said: loo_tutor/widgets/_base.py) becomes an ARIA
  // live region as it is made, so that a screen reader reads out each change.
  async create_view(model, options) {
    const view = await super.create_view(model, options);
    if ((model.get('_dom_classes') || []).includes('loo-said')) {
      view.el.setAttribute('aria-live', 'polite');
      view.el.setAttribute('aria-atomic', 'true');
    }
    return view;
  }

  // Sends ``content`` as a message to the Python of every widget of the class
  // ``domClass`` (such as the score lines, loo-score), as a widget's own view would.
  async tell(domClass, content) {
    const models = await Promise.all(Object.values(this._models || {}));
    models.filter((model) => (model.get('_dom_classes') || []).includes(domClass))
      .forEach((model) => model.send(content));
  }

  // The view of the widget ``modelId``, drawn into ``place`` (in the page).
  async draw(modelId, place) {
    const model = await this.get_model(modelId);
    const view = await this.create_view(model);
    LuminoWidget.attach(view.luminoWidget, place);
    return view;
  }
}
