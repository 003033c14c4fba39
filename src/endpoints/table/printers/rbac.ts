/**
 * rbac.authorization.k8s.io bindings. Roles and cluster roles have no columns of their own:
 * they are served with the default table (Name, Created At).
 */
import { objectAt, objects, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrintedCells, type PrinterTable } from '../printer.js';

function bindingCells(binding: JsonObject): PrintedCells {
  const roleRef = objectAt(binding.roleRef);
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const subject of objects(binding.subjects)) {
    if (subject.kind === 'User') users.push(text(subject.name));
    else if (subject.kind === 'Group') groups.push(text(subject.name));
    else if (subject.kind === 'ServiceAccount') serviceAccounts.push(`${text(subject.namespace)}/${text(subject.name)}`);
  }
  return {
    Role: `${text(roleRef.kind)}/${text(roleRef.name)}`,
    Users: users.join(', '),
    Groups: groups.join(', '),
    ServiceAccounts: serviceAccounts.join(', '),
  };
}

/** Printers keyed by "group/resource". */
export const rbacPrinters: PrinterTable = {
  'rbac.authorization.k8s.io/rolebindings': cellsPrinter(bindingCells),
  'rbac.authorization.k8s.io/clusterrolebindings': cellsPrinter(bindingCells),
};
