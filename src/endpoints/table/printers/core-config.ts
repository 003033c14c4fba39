/**
 * Core configuration and identity types: namespaces, config maps, secrets, service accounts.
 */
import { size, list, path, text } from '../object-fields.js';
import { cellsPrinter, type PrinterTable } from '../printer.js';

/** Printers keyed by "group/resource". */
export const coreConfigPrinters: PrinterTable = {
  '/namespaces': cellsPrinter((ns) => ({ Status: text(path(ns, 'status', 'phase')) })),
  // Both maps count: a key lives in exactly one of them.
  '/configmaps': cellsPrinter((cm) => ({ Data: size(cm.data) + size(cm.binaryData) })),
  '/secrets': cellsPrinter((secret) => ({ Type: text(secret.type), Data: size(secret.data) })),
  // 1.32 still shows the number of legacy token secrets; later versions drop the column.
  '/serviceaccounts': cellsPrinter((sa) => ({ Secrets: list(sa.secrets).length })),
};
