/**
 * Finds the printer for a resource type. Printers are keyed by "group/resource"; a
 * "group/version/resource" key, when present, wins (autoscaling/v1 prints its single CPU target
 * differently from v2).
 */
import type { Printer, PrinterTable } from './printer.js';
import { appsPrinters } from './printers/apps.js';
import { autoscalingPrinters } from './printers/autoscaling.js';
import { batchPrinters } from './printers/batch.js';
import { clusterMiscPrinters } from './printers/cluster-misc.js';
import { controlPlanePrinters } from './printers/control-plane.js';
import { coreConfigPrinters } from './printers/core-config.js';
import { coreMiscPrinters } from './printers/core-misc.js';
import { coreNetworkPrinters } from './printers/core-network.js';
import { coreStoragePrinters } from './printers/core-storage.js';
import { dynamicResourcePrinters } from './printers/dynamic-resources.js';
import { eventPrinters } from './printers/events.js';
import { networkingPrinters } from './printers/networking.js';
import { nodePrinters } from './printers/nodes.js';
import { podPrinter } from './printers/pods.js';
import { rbacPrinters } from './printers/rbac.js';
import { storagePrinters } from './printers/storage.js';

const PRINTERS: PrinterTable = Object.freeze({
  '/pods': podPrinter,
  ...coreConfigPrinters,
  ...coreNetworkPrinters,
  ...coreStoragePrinters,
  ...coreMiscPrinters,
  ...nodePrinters,
  ...eventPrinters,
  ...appsPrinters,
  ...batchPrinters,
  ...autoscalingPrinters,
  ...networkingPrinters,
  ...rbacPrinters,
  ...storagePrinters,
  ...clusterMiscPrinters,
  ...controlPlanePrinters,
  ...dynamicResourcePrinters,
});

/** The printer of a built-in type, or undefined when it has none (generic cells are used). */
export function printerFor(group: string, version: string, resource: string): Printer | undefined {
  return PRINTERS[`${group}/${version}/${resource}`] ?? PRINTERS[`${group}/${resource}`];
}
