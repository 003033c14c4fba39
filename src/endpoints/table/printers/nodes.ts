/**
 * Nodes: STATUS from the Ready condition (plus SchedulingDisabled when cordoned), ROLES from the
 * node-role labels, and the node info in the wide columns.
 */
import { objectAt, objects, path, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrinterTable } from '../printer.js';

const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';

function nodeStatus(node: JsonObject): string {
  const ready = objects(path(node, 'status', 'conditions')).filter((c) => c.type === 'Ready').at(-1);
  const status = ready === undefined ? ['Unknown'] : [ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (path(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

/** Roles from `node-role.kubernetes.io/<role>` keys and the legacy `kubernetes.io/role=<role>`, sorted and unique. */
function nodeRoles(node: JsonObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(objectAt(path(node, 'metadata', 'labels')))) {
    if (key.startsWith(ROLE_LABEL_PREFIX) && key.length > ROLE_LABEL_PREFIX.length) roles.add(key.slice(ROLE_LABEL_PREFIX.length));
    else if (key === LEGACY_ROLE_LABEL && text(value) !== '') roles.add(text(value));
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function address(node: JsonObject, type: string): string {
  const found = objects(path(node, 'status', 'addresses')).find((a) => a.type === type);
  return found === undefined ? '<none>' : text(found.address);
}

function orUnknown(value: unknown): string {
  return text(value) === '' ? '<unknown>' : text(value);
}

/** Printers keyed by "group/resource". */
export const nodePrinters: PrinterTable = {
  '/nodes': cellsPrinter((node) => {
    const info = objectAt(path(node, 'status', 'nodeInfo'));
    return {
      Status: nodeStatus(node),
      Roles: nodeRoles(node),
      Version: text(info.kubeletVersion),
      'Internal-IP': address(node, 'InternalIP'),
      'External-IP': address(node, 'ExternalIP'),
      'OS-Image': orUnknown(info.osImage),
      'Kernel-Version': orUnknown(info.kernelVersion),
      'Container-Runtime': orUnknown(info.containerRuntimeVersion),
    };
  }),
};
