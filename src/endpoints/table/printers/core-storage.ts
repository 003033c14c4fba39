/**
 * Persistent volumes and claims: capacity, access modes in short form (RWO, ROX, RWX, RWOP),
 * phase (Terminating while being deleted), the bound claim or volume, and the storage class, for
 * which the old beta annotation still wins over spec.storageClassName.
 */
import { quantityText } from '../cell-format.js';
import { objectAt, optionalObject, optionalText, path, strings, text, type JsonObject } from '../object-fields.js';
import { cellsPrinter, type PrinterTable } from '../printer.js';

const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** Access modes in upstream's fixed order, whatever order they were listed in. */
const ACCESS_MODES: readonly (readonly [mode: string, short: string])[] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

function accessModesText(modes: unknown): string {
  const present = new Set(strings(modes));
  return ACCESS_MODES.filter(([mode]) => present.has(mode)).map(([, short]) => short).join(',');
}

function storageClass(object: JsonObject): string {
  const annotation = optionalText(path(object, 'metadata', 'annotations', BETA_STORAGE_CLASS_ANNOTATION));
  return annotation ?? text(path(object, 'spec', 'storageClassName'));
}

function phase(object: JsonObject): string {
  return (path(object, 'metadata', 'deletionTimestamp') ?? null) !== null ? 'Terminating' : text(path(object, 'status', 'phase'));
}

function orUnset(value: unknown): string {
  return optionalText(value) ?? '<unset>';
}

/** Printers keyed by "group/resource". */
export const coreStoragePrinters: PrinterTable = {
  '/persistentvolumes': cellsPrinter((pv) => {
    const spec = objectAt(pv.spec);
    const claim = optionalObject(spec.claimRef);
    return {
      Capacity: quantityText(path(spec, 'capacity', 'storage')),
      'Access Modes': accessModesText(spec.accessModes),
      'Reclaim Policy': text(spec.persistentVolumeReclaimPolicy),
      Status: phase(pv),
      Claim: claim === undefined ? '' : `${text(claim.namespace)}/${text(claim.name)}`,
      StorageClass: storageClass(pv),
      VolumeAttributesClass: orUnset(spec.volumeAttributesClassName),
      Reason: text(path(pv, 'status', 'reason')),
      VolumeMode: orUnset(spec.volumeMode),
    };
  }),
  '/persistentvolumeclaims': cellsPrinter((pvc) => {
    const spec = objectAt(pvc.spec);
    // Capacity and access modes are the bound volume's, shown only once bound.
    const bound = text(spec.volumeName) !== '';
    return {
      Status: phase(pvc),
      Volume: text(spec.volumeName),
      Capacity: bound ? quantityText(path(pvc, 'status', 'capacity', 'storage')) : '',
      'Access Modes': bound ? accessModesText(path(pvc, 'status', 'accessModes')) : '',
      StorageClass: storageClass(pvc),
      VolumeAttributesClass: orUnset(spec.volumeAttributesClassName),
      VolumeMode: orUnset(spec.volumeMode),
    };
  }),
};
