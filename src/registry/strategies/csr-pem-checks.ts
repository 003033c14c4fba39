/**
 * Upstream's checks of the two PEM fields of a CertificateSigningRequest, with Go's error texts
 * (clients see them after `Invalid value: ...:`):
 * - spec.request must be a PEM CERTIFICATE REQUEST block holding a PKCS#10 request whose signature
 *   verifies (validateCSR: ParseCSR, then CheckSignature);
 * - status.certificate, when set, must be one or more CERTIFICATE blocks without headers, each
 *   holding certificates that parse (validateCertificate).
 * Go's ASN.1 errors name Go structs and offsets; those are matched only in their leading words.
 */
import { X509Certificate } from 'node:crypto';
import { goQuote } from '../../serialization/go-format.js';
import { signatureError } from './csr-signature.js';
import { Asn1Error, parseCertificateRequest, splitElements } from './pkcs10-request.js';
import { decodePem } from './pem-blocks.js';

/** Go's error for `request` (the decoded spec.request), or undefined when it is a valid signed request. */
export function certificateRequestError(request: Buffer): string | undefined {
  const decoded = decodePem(request);
  if (!decoded || decoded.block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  try {
    return signatureError(parseCertificateRequest(decoded.block.bytes));
  } catch (err) {
    if (err instanceof Asn1Error) return err.message;
    throw err;
  }
}

/** Go's error for `certificate` (the decoded status.certificate), or undefined when empty or valid. */
export function certificateChainError(certificate: Buffer): string | undefined {
  if (certificate.length === 0) return undefined;
  let blocks = 0;
  for (let rest = certificate; ; ) {
    const decoded = decodePem(rest);
    if (!decoded) break;
    const { block } = decoded;
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${goQuote(block.type)}`;
    if (block.headers.size > 0) return 'no PEM block headers are permitted';
    blocks++;
    const count = certificateCount(block.bytes);
    if (typeof count === 'string') return count;
    if (count === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
    rest = decoded.rest;
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}

/** How many DER certificates follow each other in `der` (Go's x509.ParseCertificates), or Go's error. */
function certificateCount(der: Buffer): number | string {
  try {
    const certificates = splitElements(der);
    for (const certificate of certificates) new X509Certificate(certificate);
    return certificates.length;
  } catch {
    return 'x509: malformed certificate';
  }
}
