/**
 * Upstream's AlwaysDeny admission plugin (deprecated there, kept for tests of clusters): every write
 * made through the API is refused; reads pass.
 */
import type { ResourceRef } from '../api/errors.js';
import type { WriteAdmission } from '../registry/store/store-context.js';
import { admissionForbidden } from './admission-forbidden.js';

export class AlwaysDeny implements WriteAdmission {
  /** Throws 403 `<resource> "<name>" is forbidden: admission control is denying all modifications`. */
  checkWrite(ref: ResourceRef): void {
    throw admissionForbidden(ref, 'admission control is denying all modifications');
  }
}
