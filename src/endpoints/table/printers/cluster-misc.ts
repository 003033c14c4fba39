/**
 * Small cluster-level types: API services, leases, priority classes, runtime classes, pod
 * disruption budgets and certificate signing requests.
 */
import { intOrStringText } from '../cell-format.js';
import { humanDuration } from '../human-duration.js';
import { bool, num, objects, optionalObject, optionalText, path, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrintedCells, type PrinterTable } from '../printer.js';

/** "True", "False (Reason)" or "Unknown" from the Available condition. */
function apiServiceCells(apiService: JsonObject): PrintedCells {
  const service = optionalObject(path(apiService, 'spec', 'service'));
  const available = objects(path(apiService, 'status', 'conditions')).find((c) => c.type === 'Available');
  let status = 'Unknown';
  if (available !== undefined) {
    const value = text(available.status);
    status = value !== 'True' && text(available.reason) !== '' ? `${value} (${text(available.reason)})` : value;
  }
  return {
    Service: service === undefined ? 'Local' : `${text(service.namespace)}/${text(service.name)}`,
    Available: status,
  };
}

/** Approved/Denied/Pending, then ",Failed" and ",Issued" when they apply. */
function csrCondition(csr: JsonObject): string {
  const types = new Set(objects(path(csr, 'status', 'conditions')).map((c) => c.type));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (text(path(csr, 'status', 'certificate')) !== '') status += ',Issued';
  return status;
}

function csrCells(csr: JsonObject): PrintedCells {
  const expiration = path(csr, 'spec', 'expirationSeconds');
  return {
    SignerName: text(path(csr, 'spec', 'signerName')) || '<none>',
    Requestor: text(path(csr, 'spec', 'username')),
    RequestedDuration: typeof expiration === 'number' ? humanDuration(expiration * 1000) : '<none>',
    Condition: csrCondition(csr),
  };
}

function budgetBound(value: unknown): string {
  return value === undefined || value === null ? 'N/A' : intOrStringText(value);
}

/** Printers keyed by "group/resource". */
export const clusterMiscPrinters: PrinterTable = {
  'apiregistration.k8s.io/apiservices': cellsPrinter(apiServiceCells),
  'coordination.k8s.io/leases': cellsPrinter((lease) => ({ Holder: text(path(lease, 'spec', 'holderIdentity')) })),
  'scheduling.k8s.io/priorityclasses': cellsPrinter((pc) => ({
    Value: num(pc.value),
    'Global-Default': bool(pc.globalDefault),
    PreemptionPolicy: optionalText(pc.preemptionPolicy) ?? '',
  })),
  'node.k8s.io/runtimeclasses': cellsPrinter((rc) => ({ Handler: text(rc.handler) })),
  'policy/poddisruptionbudgets': cellsPrinter((pdb) => ({
    'Min Available': budgetBound(path(pdb, 'spec', 'minAvailable')),
    'Max Unavailable': budgetBound(path(pdb, 'spec', 'maxUnavailable')),
    'Allowed Disruptions': num(path(pdb, 'status', 'disruptionsAllowed')),
  })),
  'certificates.k8s.io/certificatesigningrequests': cellsPrinter(csrCells),
};
