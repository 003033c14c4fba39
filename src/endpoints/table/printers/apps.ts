/**
 * apps/v1 workloads: deployments, replica sets, stateful sets, daemon sets and controller
 * revisions. Replica counts come from status; the desired count from spec (defaulted to 1).
 */
import { containerCells, formatLabelSelector, formatLabels, labelSelectorText } from '../cell-format.js';
import { num, objects, path, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrintedCells, type PrinterTable } from '../printer.js';

function desired(object: JsonObject): number {
  return num(path(object, 'spec', 'replicas'), 1);
}

function status(object: JsonObject, field: string): number {
  return num(path(object, 'status', field));
}

function templateCells(object: JsonObject): { Containers: string; Images: string } {
  const { containers, images } = containerCells(path(object, 'spec', 'template', 'spec'));
  return { Containers: containers, Images: images };
}

function deploymentCells(deployment: JsonObject): PrintedCells {
  // Unlike the other workloads, an empty selector prints as "" here and an invalid one as "<invalid>".
  const selector = labelSelectorText(path(deployment, 'spec', 'selector'));
  return {
    Ready: `${status(deployment, 'readyReplicas')}/${desired(deployment)}`,
    'Up-to-date': status(deployment, 'updatedReplicas'),
    Available: status(deployment, 'availableReplicas'),
    ...templateCells(deployment),
    Selector: selector ?? '<invalid>',
  };
}

/** `kind.group/name` of the controlling owner, lowercased, or "<none>". */
function controllerOf(object: JsonObject): string {
  const owner = objects(path(object, 'metadata', 'ownerReferences')).find((o) => o.controller === true);
  if (owner === undefined) return '<none>';
  const apiVersion = text(owner.apiVersion);
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
  const kind = text(owner.kind);
  if (kind === '' && group === '') return text(owner.name);
  const groupKind = group === '' ? kind : `${kind}.${group}`;
  return `${groupKind.toLowerCase()}/${text(owner.name)}`;
}

/** Printers keyed by "group/resource". */
export const appsPrinters: PrinterTable = {
  'apps/deployments': cellsPrinter(deploymentCells),
  'apps/replicasets': cellsPrinter((rs) => ({
    Desired: desired(rs),
    Current: status(rs, 'replicas'),
    Ready: status(rs, 'readyReplicas'),
    ...templateCells(rs),
    Selector: formatLabelSelector(path(rs, 'spec', 'selector')),
  })),
  'apps/statefulsets': cellsPrinter((sts) => ({
    Ready: `${status(sts, 'readyReplicas')}/${desired(sts)}`,
    ...templateCells(sts),
  })),
  'apps/daemonsets': cellsPrinter((ds) => ({
    Desired: status(ds, 'desiredNumberScheduled'),
    Current: status(ds, 'currentNumberScheduled'),
    Ready: status(ds, 'numberReady'),
    'Up-to-date': status(ds, 'updatedNumberScheduled'),
    Available: status(ds, 'numberAvailable'),
    'Node Selector': formatLabels(path(ds, 'spec', 'template', 'spec', 'nodeSelector')),
    ...templateCells(ds),
    Selector: formatLabelSelector(path(ds, 'spec', 'selector')),
  })),
  'apps/controllerrevisions': cellsPrinter((revision) => ({
    Controller: controllerOf(revision),
    Revision: num(revision.revision),
  })),
};
