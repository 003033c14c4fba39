/**
 * Types that configure the control plane itself: API priority and fairness
 * (flowcontrol.apiserver.k8s.io) and admission configuration (admissionregistration.k8s.io).
 */
import { labelSelectorText } from '../cell-format.js';
import { list, num, objects, optionalObject, path, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrintedCells, type PrinterTable } from '../printer.js';

function flowSchemaCells(schema: JsonObject): PrintedCells {
  const distinguisher = optionalObject(path(schema, 'spec', 'distinguisherMethod'));
  const dangling = objects(path(schema, 'status', 'conditions')).find((c) => c.type === 'Dangling');
  return {
    PriorityLevel: text(path(schema, 'spec', 'priorityLevelConfiguration', 'name')),
    MatchingPrecedence: num(path(schema, 'spec', 'matchingPrecedence')),
    DistinguisherMethod: distinguisher === undefined ? '<none>' : text(distinguisher.type),
    MissingPL: dangling === undefined ? '?' : text(dangling.status),
  };
}

/** Numbers of a limited level, "<none>" for exempt levels or levels without queuing. */
function priorityLevelCells(level: JsonObject): PrintedCells {
  const limited = optionalObject(path(level, 'spec', 'limited'));
  const queuing = optionalObject(path(limited, 'limitResponse', 'queuing'));
  const none = '<none>';
  return {
    Type: text(path(level, 'spec', 'type')),
    NominalConcurrencyShares: limited === undefined ? none : num(limited.nominalConcurrencyShares),
    Queues: queuing === undefined ? none : num(queuing.queues),
    HandSize: queuing === undefined ? none : num(queuing.handSize),
    QueueLengthLimit: queuing === undefined ? none : num(queuing.queueLengthLimit),
  };
}

function paramKind(policy: JsonObject): string {
  const kind = optionalObject(path(policy, 'spec', 'paramKind'));
  return kind === undefined ? '<unset>' : `${text(kind.apiVersion)}/${text(kind.kind)}`;
}

/** `namespace/name`, `*\/name` when the namespace is left open, or the selector. */
function paramRef(binding: JsonObject): string {
  const ref = optionalObject(path(binding, 'spec', 'paramRef'));
  if (ref === undefined) return '<unset>';
  if (text(ref.name) !== '') return `${text(ref.namespace) || '*'}/${text(ref.name)}`;
  if (optionalObject(ref.selector) !== undefined) return labelSelectorText(ref.selector) ?? '<invalid>';
  return '<unset>';
}

/** Printers keyed by "group/resource". */
export const controlPlanePrinters: PrinterTable = {
  'flowcontrol.apiserver.k8s.io/flowschemas': cellsPrinter(flowSchemaCells),
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': cellsPrinter(priorityLevelCells),
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': cellsPrinter((c) => ({ Webhooks: list(c.webhooks).length })),
  'admissionregistration.k8s.io/validatingwebhookconfigurations': cellsPrinter((c) => ({ Webhooks: list(c.webhooks).length })),
  'admissionregistration.k8s.io/validatingadmissionpolicies': cellsPrinter((policy) => ({
    Validations: list(path(policy, 'spec', 'validations')).length,
    ParamKind: paramKind(policy),
  })),
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': cellsPrinter((binding) => ({
    PolicyName: text(path(binding, 'spec', 'policyName')),
    ParamRef: paramRef(binding),
  })),
};
