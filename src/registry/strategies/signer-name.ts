/**
 * Upstream's ValidateSignerName: a signer is named `<domain>/<path>`, e.g. `example.com/my-signer`
 * or `kubernetes.io/kube-apiserver-client`. The domain is at least two DNS labels; the path is
 * DNS subdomains joined by dots, so `<fqdn>/<namespace>.<name>` fits (571 bytes in all).
 */
import type { FieldError } from '../../api/errors.js';
import { DNS1123_LABEL_MAX_LENGTH, DNS1123_SUBDOMAIN_MAX_LENGTH, isDns1123Label, isDns1123Subdomain } from '../../validation/dns-names.js';
import { fieldInvalid, fieldRequired, fieldTooLong } from '../../validation/field-errors.js';
import { goQuote } from '../../serialization/go-format.js';

const MAX_DOMAIN_LENGTH = DNS1123_SUBDOMAIN_MAX_LENGTH;
const MAX_SIGNER_NAME_LENGTH = MAX_DOMAIN_LENGTH + DNS1123_SUBDOMAIN_MAX_LENGTH + DNS1123_LABEL_MAX_LENGTH + 1 + 1;

/** Field errors of `signerName` at `field`, in upstream's order and words. */
export function validateSignerName(field: string, signerName: string): FieldError[] {
  if (signerName === '') return [fieldRequired(field)];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [fieldInvalid(field, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const [domain, path] = segments as [string, string];
  const errors: FieldError[] = [];
  if (Buffer.byteLength(domain) > MAX_DOMAIN_LENGTH) errors.push(fieldTooLong(field, MAX_DOMAIN_LENGTH));
  const labels = domain.split('.');
  errors.push(...firstBadPart(field, domain, labels, isDns1123Label));
  if (labels.length < 2) errors.push(fieldInvalid(field, domain, 'should be a domain with at least two segments separated by dots'));
  errors.push(...firstBadPart(field, path, path.split('.'), isDns1123Subdomain));
  if (Buffer.byteLength(signerName) > MAX_SIGNER_NAME_LENGTH) errors.push(fieldTooLong(field, MAX_SIGNER_NAME_LENGTH));
  return errors;
}

/** The errors of the first part that fails `check`: later ones would only repeat them. */
function firstBadPart(field: string, segment: string, parts: readonly string[], check: (part: string) => string[]): FieldError[] {
  for (const part of parts) {
    const problems = check(part);
    if (problems.length > 0) return problems.map((p) => fieldInvalid(field, segment, `validating label ${goQuote(part)}: ${p}`));
  }
  return [];
}
