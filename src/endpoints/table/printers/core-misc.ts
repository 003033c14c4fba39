/**
 * The remaining core types with columns of their own: pod templates, replication controllers,
 * resource quotas and component statuses.
 */
import { containerCells, formatLabels, quantityText } from '../cell-format.js';
import { num, objectAt, objects, path, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrintedCells, type PrinterTable } from '../printer.js';

/** `resource: used/hard` pairs split into requests and `limits.*`, sorted by resource name. */
function quotaCells(quota: JsonObject): PrintedCells {
  const hard = objectAt(path(quota, 'status', 'hard'));
  const used = objectAt(path(quota, 'status', 'used'));
  const requests: string[] = [];
  const limits: string[] = [];
  for (const resource of Object.keys(hard).sort()) {
    const entry = `${resource}: ${quantityText(used[resource])}/${quantityText(hard[resource])}`;
    const pieces = resource.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(entry);
  }
  return { Request: requests.join(', '), Limit: limits.join(', ') };
}

function componentStatusCells(status: JsonObject): PrintedCells {
  const healthy = objects(status.conditions).find((c) => c.type === 'Healthy');
  if (healthy === undefined) return { Status: 'Unknown', Message: '', Error: '' };
  return {
    Status: healthy.status === 'True' ? 'Healthy' : 'Unhealthy',
    Message: text(healthy.message),
    Error: text(healthy.error),
  };
}

/** Printers keyed by "group/resource". */
export const coreMiscPrinters: PrinterTable = {
  '/podtemplates': cellsPrinter((template) => {
    const { containers, images } = containerCells(path(template, 'template', 'spec'));
    return { Containers: containers, Images: images, 'Pod Labels': formatLabels(path(template, 'template', 'metadata', 'labels')) };
  }),
  '/replicationcontrollers': cellsPrinter((rc) => {
    const { containers, images } = containerCells(path(rc, 'spec', 'template', 'spec'));
    return {
      // An unset replica count is defaulted to 1 on write.
      Desired: num(path(rc, 'spec', 'replicas'), 1),
      Current: num(path(rc, 'status', 'replicas')),
      Ready: num(path(rc, 'status', 'readyReplicas')),
      Containers: containers,
      Images: images,
      Selector: formatLabels(path(rc, 'spec', 'selector')),
    };
  }),
  '/resourcequotas': cellsPrinter(quotaCells),
  '/componentstatuses': cellsPrinter(componentStatusCells),
};
