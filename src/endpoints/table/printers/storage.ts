/**
 * storage.k8s.io: storage classes (the default class is marked in its name), CSI drivers and
 * nodes, volume attachments and volume attributes classes. CSI storage capacities are served with
 * the default table.
 */
import { bool, list, objects, optionalObject, optionalText, path, strings, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrintedCells, type PrinterTable } from '../printer.js';

const DEFAULT_CLASS_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];

function storageClassCells(storageClass: JsonObject): PrintedCells {
  const annotations = optionalObject(path(storageClass, 'metadata', 'annotations')) ?? {};
  const isDefault = DEFAULT_CLASS_ANNOTATIONS.some((key) => annotations[key] === 'true');
  const name = text(path(storageClass, 'metadata', 'name'));
  return {
    Name: isDefault ? `${name} (default)` : name,
    Provisioner: text(storageClass.provisioner),
    ReclaimPolicy: optionalText(storageClass.reclaimPolicy) ?? 'Delete',
    VolumeBindingMode: optionalText(storageClass.volumeBindingMode) ?? 'Immediate',
    AllowVolumeExpansion: bool(storageClass.allowVolumeExpansion),
  };
}

function csiDriverCells(driver: JsonObject): PrintedCells {
  const spec = optionalObject(driver.spec) ?? {};
  const modes = strings(spec.volumeLifecycleModes).join(',');
  const tokenRequests = Array.isArray(spec.tokenRequests)
    ? objects(spec.tokenRequests).map((t) => text(t.audience)).join(',')
    : '<unset>';
  return {
    AttachRequired: bool(spec.attachRequired, true),
    PodInfoOnMount: bool(spec.podInfoOnMount),
    StorageCapacity: bool(spec.storageCapacity),
    TokenRequests: tokenRequests,
    RequiresRepublish: bool(spec.requiresRepublish),
    Modes: modes === '' ? '<none>' : modes,
  };
}

/** Printers keyed by "group/resource". */
export const storagePrinters: PrinterTable = {
  'storage.k8s.io/storageclasses': cellsPrinter(storageClassCells),
  'storage.k8s.io/csidrivers': cellsPrinter(csiDriverCells),
  'storage.k8s.io/csinodes': cellsPrinter((node) => ({ Drivers: list(path(node, 'spec', 'drivers')).length })),
  'storage.k8s.io/volumeattachments': cellsPrinter((attachment) => ({
    Attacher: text(path(attachment, 'spec', 'attacher')),
    PV: text(path(attachment, 'spec', 'source', 'persistentVolumeName')),
    Node: text(path(attachment, 'spec', 'nodeName')),
    Attached: bool(path(attachment, 'status', 'attached')),
  })),
  'storage.k8s.io/volumeattributesclasses': cellsPrinter((vac) => ({ DriverName: text(vac.driverName) })),
};
