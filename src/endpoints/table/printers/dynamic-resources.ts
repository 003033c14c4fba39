/**
 * resource.k8s.io (dynamic resource allocation): device classes, resource claims (with their
 * allocation state), claim templates and resource slices.
 */
import { list, optionalObject, path, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrinterTable } from '../printer.js';

/** "deleted", "pending", "allocated", "reserved", comma-joined as they apply. */
function claimState(claim: JsonObject): string {
  const deleted = (path(claim, 'metadata', 'deletionTimestamp') ?? null) !== null;
  const states: string[] = deleted ? ['deleted'] : [];
  if (optionalObject(path(claim, 'status', 'allocation')) === undefined) {
    if (!deleted) states.push('pending');
  } else {
    states.push('allocated');
    if (list(path(claim, 'status', 'reservedFor')).length > 0) states.push('reserved');
  }
  return states.join(',');
}

/** Printers keyed by "group/resource"; device classes and claim templates need only Name and Age. */
export const dynamicResourcePrinters: PrinterTable = {
  'resource.k8s.io/resourceclaims': cellsPrinter((claim) => ({ State: claimState(claim) })),
  'resource.k8s.io/resourceslices': cellsPrinter((slice) => ({
    Node: text(path(slice, 'spec', 'nodeName')),
    Driver: text(path(slice, 'spec', 'driver')),
    Pool: text(path(slice, 'spec', 'pool', 'name')),
  })),
};
