/**
 * Upstream's validation of CertificateSigningRequests (pkg/apis/certificates/validation): the
 * same object rules on create and on every update, relaxed on update where the stored object
 * already breaks them (data written by older servers stays writable), plus the update rules that
 * keep approval and issuing apart: only the approval subresource decides (Approved/Denied), only
 * the status subresource issues (status.certificate), and no decision or failure is ever taken back.
 */
import type { FieldError } from '../../api/errors.js';
import { fieldDuplicate, fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired } from '../../validation/field-errors.js';
import { goQuote } from '../../serialization/go-format.js';
import { jsonEqual } from '../object.js';
import { APPROVED, conditionsOf, conditionsOfType, DENIED, FAILED, statusOf, typeOf } from './csr-conditions.js';
import { certificateChainError, certificateRequestError } from './csr-pem-checks.js';
import { asStringArray, recordAt, stringAt, type JsonRecord } from './json-access.js';
import { jsonDiff } from './json-diff.js';
import { validateSignerName } from './signer-name.js';

/** Upstream's key usages, sorted as its error message lists them. */
const KEY_USAGES: readonly string[] = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
].sort();
const KNOWN_USAGES = new Set(KEY_USAGES);
const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';
const MIN_EXPIRATION_SECONDS = 600;
/** Condition types that, when present, may only be True. */
const TRUE_ONLY_TYPES = new Set([APPROVED, DENIED, FAILED]);
const TRUE_ONLY = ['True'];
const ANY_STATUS = ['False', 'True', 'Unknown'];

/**
 * What a write may do. The first two belong to a subresource; the others are tolerances, granted
 * when the stored object already breaks that rule.
 */
export interface CsrValidationOptions {
  /** The approval subresource may add and change Approved/Denied conditions. */
  readonly allowSettingApprovalConditions: boolean;
  /** The status subresource may set status.certificate (once). */
  readonly allowSettingCertificate: boolean;
  readonly allowBothApprovedAndDenied: boolean;
  readonly allowLegacySignerName: boolean;
  readonly allowDuplicateConditionTypes: boolean;
  readonly allowEmptyConditionType: boolean;
  /** status.certificate is left unchecked when the write keeps it, or the stored one is already bad. */
  readonly allowArbitraryCertificate: boolean;
  readonly allowUnknownUsages: boolean;
  readonly allowDuplicateUsages: boolean;
}

/** Upstream's getValidationOptions: the tolerances a write over `old` gets (none on create). */
export function validationOptions(csr: JsonRecord, old: JsonRecord | undefined): CsrValidationOptions {
  const oldUsages = old ? usagesOf(old) : [];
  const oldTypes = old ? conditionsOf(old).map(typeOf) : [];
  const sameCertificate = old !== undefined && bytesOf(recordAt(csr, 'status'), 'certificate').equals(bytesOf(recordAt(old, 'status'), 'certificate'));
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes(APPROVED) && oldTypes.includes(DENIED),
    allowLegacySignerName: old !== undefined && stringAt(recordAt(old, 'spec'), 'signerName') === LEGACY_UNKNOWN_SIGNER,
    allowDuplicateConditionTypes: new Set(oldTypes).size !== oldTypes.length,
    allowEmptyConditionType: oldTypes.includes(''),
    allowArbitraryCertificate: sameCertificate || (old !== undefined && certificateChainError(bytesOf(recordAt(old, 'status'), 'certificate')) !== undefined),
    allowUnknownUsages: oldUsages.some((u) => !KNOWN_USAGES.has(u)),
    allowDuplicateUsages: new Set(oldUsages).size !== oldUsages.length,
  };
}

/** Upstream's validateCertificateSigningRequest without the metadata rules (the store checks those). */
export function validateCsr(csr: JsonRecord, opts: CsrValidationOptions): FieldError[] {
  const spec = recordAt(csr, 'spec') ?? {};
  const errors: FieldError[] = [];
  const request = spec['request'];
  const requestError = certificateRequestError(bytesOf(spec, 'request'));
  if (requestError !== undefined) errors.push(fieldInvalid('spec.request', jsonBytes(request), requestError));
  errors.push(...validateUsages(usagesOf(csr), opts));
  const signerName = stringAt(spec, 'signerName') ?? '';
  if (!opts.allowLegacySignerName && signerName === LEGACY_UNKNOWN_SIGNER) {
    errors.push(fieldInvalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errors.push(...validateSignerName('spec.signerName', signerName));
  }
  const expiration = spec['expirationSeconds'];
  if (typeof expiration === 'number' && expiration < MIN_EXPIRATION_SECONDS) {
    errors.push(fieldInvalid('spec.expirationSeconds', expiration, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errors.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const certificateError = certificateChainError(bytesOf(recordAt(csr, 'status'), 'certificate'));
    if (certificateError !== undefined) errors.push(fieldInvalid('status.certificate', '<certificate data>', certificateError));
  }
  return errors;
}

function validateUsages(usages: readonly string[], opts: CsrValidationOptions): FieldError[] {
  const errors: FieldError[] = [];
  if (usages.length === 0) errors.push(fieldRequired('spec.usages'));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!KNOWN_USAGES.has(u)) errors.push(fieldNotSupported(`spec.usages[${i}]`, u, KEY_USAGES));
    });
  }
  if (!opts.allowDuplicateUsages) {
    usages.forEach((u, i) => {
      if (usages.indexOf(u) < i) errors.push(fieldDuplicate(`spec.usages[${i}]`, u));
    });
  }
  return errors;
}

/** Each condition: a type, a status allowed for it, Approved xor Denied, no type twice. */
function validateConditions(csr: JsonRecord, opts: CsrValidationOptions): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(csr).forEach((condition, i) => {
    const path = `status.conditions[${i}]`;
    const type = typeOf(condition);
    const status = statusOf(condition);
    if (!opts.allowEmptyConditionType && type === '') errors.push(fieldRequired(`${path}.type`));
    const allowed = TRUE_ONLY_TYPES.has(type) ? TRUE_ONLY : ANY_STATUS;
    if (status === '') errors.push(fieldRequired(`${path}.status`));
    else if (!allowed.includes(status)) errors.push(fieldNotSupported(`${path}.status`, status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === APPROVED) approved = true;
      if (type === DENIED) denied = true;
      if ((type === APPROVED && denied) || (type === DENIED && approved)) {
        errors.push(fieldInvalid('status.conditions', type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errors.push(fieldDuplicate(`${path}.type`, type));
      seen.add(type);
    }
  });
  return errors;
}

/** Upstream's validateCertificateSigningRequestUpdate, without the metadata rules. */
export function validateCsrUpdate(csr: JsonRecord, old: JsonRecord, opts: CsrValidationOptions): FieldError[] {
  const errors = validateCsr(csr, opts);
  for (const type of [APPROVED, DENIED, FAILED]) {
    if (conditionsOfType(csr, type).length < conditionsOfType(old, type).length) {
      errors.push(fieldForbidden('status.conditions', `updates may not remove a condition of type ${goQuote(type)}`));
    }
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const type of [APPROVED, DENIED]) {
      const now = conditionsOfType(csr, type);
      const before = conditionsOfType(old, type);
      if (now.length > before.length) {
        errors.push(fieldForbidden('status.conditions', `updates may not add a condition of type ${goQuote(type)}`));
      } else if (now.length === before.length && !jsonEqual(now, before)) {
        const diff = jsonDiff(before, now, 'status.conditions');
        errors.push(fieldForbidden('status.conditions', `updates may not modify a condition of type ${goQuote(type)}\n${diff}`));
      }
    }
  }
  const certificate = bytesOf(recordAt(csr, 'status'), 'certificate');
  const oldCertificate = bytesOf(recordAt(old, 'status'), 'certificate');
  if (!certificate.equals(oldCertificate)) {
    if (!opts.allowSettingCertificate) errors.push(fieldForbidden('status.certificate', 'updates may not set certificate content'));
    else if (oldCertificate.length > 0) errors.push(fieldForbidden('status.certificate', 'updates may not modify existing certificate content'));
  }
  return errors;
}

function usagesOf(csr: JsonRecord): string[] {
  return asStringArray(recordAt(csr, 'spec')?.['usages']);
}

/** A []byte field (base64 on the wire, checked by the schema); empty when absent. */
function bytesOf(parent: JsonRecord | undefined, key: string): Buffer {
  const value = stringAt(parent, key);
  return value === undefined ? Buffer.alloc(0) : Buffer.from(value, 'base64');
}

/** A []byte value as encoding/json writes it in an Invalid value message: standard base64, or null for none. */
function jsonBytes(base64: unknown): string | null {
  return typeof base64 === 'string' ? Buffer.from(base64, 'base64').toString('base64') : null;
}
