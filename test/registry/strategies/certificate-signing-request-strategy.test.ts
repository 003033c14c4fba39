import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/registry/object.js';
import type { Strategy } from '../../../src/registry/strategy.js';
import { populateConditionTimestamps } from '../../../src/registry/strategies/csr-conditions.js';
import { base64, certificatePem, certificateRequestPem, tamperedRequestPem } from '../../fixtures/certificate-requests.js';
import { created, ctx, messages, strategy, updated } from './fixtures.js';

const SIGNER = 'example.com/my-signer';
const USER = { name: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } };
const NOW = Date.UTC(2026, 10, 21);
const LATER = NOW + 3_600_000;
const approved = (extra: Record<string, unknown> = {}) => ({ type: 'Approved', status: 'True', reason: 'R', ...extra });

describe('CertificateSigningRequest strategy', () => {
  let s: Strategy;
  let requestPem: string;
  let certPem: string;
  /** A valid request as a client sends it. */
  let csr: (spec?: Record<string, unknown>) => KubeObject;
  /** `csr()` after create, as stored. */
  let stored: KubeObject;

  before(async () => {
    s = strategy('certificates.k8s.io', 'certificatesigningrequests');
    requestPem = await certificateRequestPem('CN=alice, O=dev');
    certPem = await certificatePem('alice');
    csr = (spec = {}) => ({ metadata: { name: 'c1' }, spec: { request: base64(requestPem), signerName: SIGNER, usages: ['client auth'], ...spec } });
    stored = created(s, csr(), ctx({ user: USER }));
  });

  const withStatus = (object: KubeObject, status: Record<string, unknown>): KubeObject => ({ ...structuredClone(object), status });
  const write = (subresource: string, object: KubeObject, old: KubeObject) => {
    const c = ctx({ subresource, now: LATER });
    const next = updated(s, object, old, c);
    return { next, errors: messages(s.validateUpdate(next, old, c)) };
  };

  it('records the requesting user and starts with an empty status', () => {
    const spec = stored['spec'] as Record<string, unknown>;
    assert.equal(spec['username'], 'alice');
    assert.equal(spec['uid'], 'u-1');
    assert.deepEqual(spec['groups'], ['dev', 'system:authenticated']);
    assert.deepEqual(spec['extra'], { scopes: ['a'] });
    assert.deepEqual(stored['status'], {});
    assert.equal(stored.metadata?.generation, undefined);
    assert.deepEqual(messages(s.validate(stored, ctx())), []);
  });

  it('drops what the client claims about the requester and any status it sends', () => {
    const claimed = { ...csr({ username: 'root', groups: ['system:masters'], uid: 'x', extra: { a: ['b'] } }), status: { conditions: [approved()] } };
    const c = created(s, claimed, ctx({ user: { name: 'bob', groups: ['system:authenticated'] } }));
    assert.deepEqual(c['spec'], { request: base64(requestPem), signerName: SIGNER, usages: ['client auth'], username: 'bob', groups: ['system:authenticated'] });
    assert.deepEqual(c['status'], {});
  });

  it('refuses invalid requests with upstream messages', () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['no request', { request: undefined }, ['spec.request: Invalid value: null: PEM block type must be CERTIFICATE REQUEST']],
      ['not PEM', { request: base64('hello') }, ['spec.request: Invalid value: "aGVsbG8=": PEM block type must be CERTIFICATE REQUEST']],
      ['no usages', { usages: [] }, ['spec.usages: Required value']],
      ['unknown usage', { usages: ['client auth', 'bogus'] }, [
        'spec.usages[1]: Unsupported value: "bogus": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", ' +
          '"crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", ' +
          '"ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", ' +
          '"server auth", "signing", "timestamping"',
      ]],
      ['duplicate usage', { usages: ['client auth', 'client auth'] }, ['spec.usages[1]: Duplicate value: "client auth"']],
      ['no signer', { signerName: undefined }, ['spec.signerName: Required value']],
      ['signer without path', { signerName: 'example.com' }, [
        `spec.signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form 'example.com/signer-name'`,
      ]],
      ['signer with one-label domain', { signerName: 'example/s' }, ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots']],
      ['signer with a bad label', { signerName: 'Example.com/s' }, [
        `spec.signerName: Invalid value: "Example.com": validating label "Example": a lowercase RFC 1123 label must consist of lower case ` +
          `alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for ` +
          `validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ]],
      ['legacy signer', { signerName: 'kubernetes.io/legacy-unknown' }, [
        'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
      ]],
      ['short expiration', { expirationSeconds: 599 }, ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']],
    ];
    for (const [name, spec, expected] of cases) {
      assert.deepEqual(messages(s.validate(created(s, csr(spec)), ctx())), expected, name);
    }
    assert.deepEqual(messages(s.validate(created(s, csr({ expirationSeconds: 600 })), ctx())), [], 'ten minutes is enough');
  });

  it('refuses a request whose signature does not verify', () => {
    const [error, ...rest] = messages(s.validate(created(s, csr({ request: base64(tamperedRequestPem(requestPem)) })), ctx()));
    assert.deepEqual(rest, []);
    assert.match(error!, /^spec\.request: Invalid value: "LS0tLS1CRUdJTi[A-Za-z0-9+/=]*": x509: ECDSA verification failure$/);
  });

  it('approval writes the conditions only, stamping their times', () => {
    const body = { ...withStatus(stored, { conditions: [approved()], certificate: base64(certPem) }), spec: { signerName: 'other.io/x' } };
    const { next, errors } = write('approval', body, stored);
    assert.deepEqual(errors, []);
    assert.deepEqual(next['spec'], stored['spec']);
    const stamp = new Date(LATER).toISOString().replace('.000Z', 'Z');
    assert.deepEqual(next['status'], { conditions: [approved({ lastUpdateTime: stamp, lastTransitionTime: stamp })] });
  });

  it('approval refuses conflicting, malformed and withdrawn decisions', () => {
    const isApproved = withStatus(stored, { conditions: [approved()] });
    const isFailed = withStatus(stored, { conditions: [{ type: 'Failed', status: 'True' }] });
    const cases: [string, KubeObject, unknown[], string[]][] = [
      ['approved and denied', stored, [approved(), { type: 'Denied', status: 'True' }], [
        'status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
      ]],
      ['approved twice', stored, [approved(), approved()], ['status.conditions[1].type: Duplicate value: "Approved"']],
      ['approved false', stored, [approved({ status: 'False' })], ['status.conditions[0].status: Unsupported value: "False": supported values: "True"']],
      ['no status', stored, [{ type: 'Approved' }], ['status.conditions[0].status: Required value']],
      ['no type', stored, [{ status: 'True' }], ['status.conditions[0].type: Required value']],
      ['other type, odd status', stored, [{ type: 'Pending', status: 'Maybe' }], [
        'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      ]],
      ['approval withdrawn', isApproved, [], ['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']],
      ['approval replaced by denial', isApproved, [{ type: 'Denied', status: 'True' }], [
        'status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
      ]],
      ['failure withdrawn', isFailed, [approved()], ['status.conditions: Forbidden: updates may not remove a condition of type "Failed"']],
    ];
    for (const [name, old, conditions, expected] of cases) {
      assert.deepEqual(write('approval', withStatus(old, { conditions }), old).errors, expected, name);
    }
  });

  it('tolerates on update what the stored object already breaks', () => {
    const legacy = withStatus(stored, { conditions: [approved(), { type: 'Denied', status: 'True' }] });
    (legacy['spec'] as Record<string, unknown>)['usages'] = ['client auth', 'bogus', 'bogus'];
    (legacy['spec'] as Record<string, unknown>)['signerName'] = 'kubernetes.io/legacy-unknown';
    const relabeled = { ...structuredClone(legacy), metadata: { name: 'c1', labels: { a: 'b' } } };
    assert.deepEqual(write('', relabeled, legacy).errors, []);
    assert.deepEqual(write('approval', legacy, legacy).errors, []);
  });

  it('keeps a condition transition time while its status stays, and keeps times the client sent', () => {
    const old = withStatus(stored, { conditions: [approved({ lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' })] });
    const next = withStatus(old, { conditions: [approved(), { type: 'Failed', status: 'True', lastUpdateTime: '2026-02-02T00:00:00Z' }] });
    populateConditionTimestamps(next, old, LATER);
    assert.deepEqual((next['status'] as { conditions: unknown[] }).conditions, [
      approved({ lastUpdateTime: '2026-11-21T01:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }),
      { type: 'Failed', status: 'True', lastUpdateTime: '2026-02-02T00:00:00Z', lastTransitionTime: '2026-11-21T01:00:00Z' },
    ]);
  });

  it('status writes the certificate once, and cannot decide', () => {
    const times = { lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' };
    const isApproved = withStatus(stored, { conditions: [approved(times)] });
    const issued = write('status', withStatus(isApproved, { conditions: [approved({ reason: 'changed' })], certificate: base64(certPem) }), isApproved);
    assert.deepEqual(issued.errors, []);
    assert.equal((issued.next['status'] as Record<string, unknown>)['certificate'], base64(certPem));
    assert.equal((issued.next['status'] as { conditions: { reason: string }[] }).conditions[0]!.reason, 'R', 'the decision is kept as stored');

    const changed = write('status', withStatus(issued.next, { ...(issued.next['status'] as object), certificate: base64(certPem + certPem) }), issued.next);
    assert.deepEqual(changed.errors, ['status.certificate: Forbidden: updates may not modify existing certificate content']);
    assert.deepEqual(write('status', withStatus(stored, { certificate: base64('junk') }), stored).errors, [
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    ]);
    assert.deepEqual(write('status', withStatus(stored, { conditions: [approved()] }), stored).errors, [
      'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    ]);
    const failed = write('status', withStatus(stored, { conditions: [{ type: 'Failed', status: 'True' }] }), stored);
    assert.deepEqual(failed.errors, [], 'a signer may record a failure');
  });

  it('the main resource changes metadata only', () => {
    const body = { ...withStatus(stored, { conditions: [approved()], certificate: base64(certPem) }), spec: { signerName: 'other.io/x' } };
    body.metadata = { name: 'c1', labels: { team: 'a' } };
    const { next, errors } = write('', body, stored);
    assert.deepEqual(errors, []);
    assert.deepEqual(next['spec'], stored['spec']);
    assert.deepEqual(next['status'], {});
    assert.deepEqual(next.metadata?.labels, { team: 'a' });
  });
});
