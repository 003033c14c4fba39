import { test } from 'node:test';
import assert from 'node:assert/strict';
import { certificateChainError, certificateRequestError } from '../../../src/registry/strategies/csr-pem-checks.js';
import { decodePem } from '../../../src/registry/strategies/pem-blocks.js';
import { certificatePem, certificateRequestPem, tamperedRequestPem } from '../../fixtures/certificate-requests.js';

const pem = (type: string, body: string, headers = '') => `-----BEGIN ${type}-----\n${headers}${body}\n-----END ${type}-----\n`;
/** The request with a zero byte after its DER. */
const withTrailingByte = (request: string) =>
  pem('CERTIFICATE REQUEST', Buffer.concat([Buffer.from(request.replace(/-----[^-]+-----|\s/g, ''), 'base64'), Buffer.of(0)]).toString('base64'));

test('PEM blocks are found as Go finds them: junk and broken blocks are skipped', () => {
  const decoded = decodePem(Buffer.from(`junk\n${pem('A', 'bad!')}${pem('B', 'AQI=')}tail`));
  assert.equal(decoded?.block.type, 'B');
  assert.deepEqual([...decoded.block.bytes], [1, 2]);
  assert.equal(decoded.rest.toString(), 'tail');
  assert.equal(decodePem(Buffer.from('-----BEGIN A-----\nAQI=\n-----END B-----\n')), undefined, 'mismatched END');
  assert.deepEqual([...decodePem(Buffer.from(pem('A', 'AQI=', 'Proc-Type: 4,ENCRYPTED\n\n')))!.block.headers], [['Proc-Type', '4,ENCRYPTED']]);
});

test('spec.request must be a signed PKCS#10 request', async () => {
  const cases: [string, string, string | undefined][] = [
    ['ECDSA P-256', await certificateRequestPem('CN=a'), undefined],
    ['RSA', await certificateRequestPem('CN=a', { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) } as Algorithm), undefined],
    ['Ed25519', await certificateRequestPem('CN=a', { name: 'Ed25519' }), undefined],
    ['tampered', tamperedRequestPem(await certificateRequestPem('CN=a')), 'x509: ECDSA verification failure'],
    ['a certificate', await certificatePem('a'), 'PEM block type must be CERTIFICATE REQUEST'],
    ['not a sequence', pem('CERTIFICATE REQUEST', 'AgEA'), "asn1: structure error: tags don't match"],
    ['truncated', pem('CERTIFICATE REQUEST', 'MAUC'), 'asn1: syntax error: data truncated'],
    ['empty', pem('CERTIFICATE REQUEST', 'MAA='), 'asn1: syntax error: sequence truncated'],
    ['trailing data', withTrailingByte(await certificateRequestPem('CN=a')), 'asn1: syntax error: trailing data'],
  ];
  for (const [name, text, expected] of cases) assert.equal(certificateRequestError(Buffer.from(text)), expected, name);
});

test('status.certificate must be CERTIFICATE blocks without headers', async () => {
  const cert = await certificatePem('a');
  const cases: [string, string, string | undefined][] = [
    ['empty', '', undefined],
    ['a chain', cert + cert, undefined],
    ['no block', 'junk', 'must contain at least one CERTIFICATE PEM block'],
    ['other type', pem('PRIVATE KEY', 'AQI='), 'only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"'],
    ['headers', pem('CERTIFICATE', 'AQI=', 'A: b\n\n'), 'no PEM block headers are permitted'],
    ['empty block', '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n', 'found CERTIFICATE PEM block containing 0 certificates'],
    ['not a certificate', cert + pem('CERTIFICATE', 'MAA='), 'x509: malformed certificate'],
  ];
  for (const [name, text, expected] of cases) assert.equal(certificateChainError(Buffer.from(text)), expected, name);
});
