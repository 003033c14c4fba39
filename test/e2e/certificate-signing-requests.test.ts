/**
 * CertificateSigningRequests against the real server: a request records who made it, is decided
 * through the approval subresource (what `kubectl certificate approve|deny` writes), and keeps its
 * spec and status apart from writes to the main resource; bad requests and bad bodies are refused
 * with a Status, never a crash.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { base64, certificateRequestPem } from '../fixtures/certificate-requests.js';
import { pinnedKubectl, startServer, type TestServer } from './harness.js';

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const decision = (type: string) => ({ type, status: 'True', reason: 'E2E', message: `${type} by the test` });

describe('certificatesigningrequests', () => {
  let server: TestServer;
  let request: string;
  const send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request(path, { method, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  const csr = (name: string, spec: Record<string, unknown> = {}) => ({
    apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
    spec: { request, signerName: 'example.com/e2e', usages: ['digital signature', 'client auth'], ...spec },
  });
  const create = async (name: string) => {
    const res = await send('POST', CSRS, csr(name));
    assert.equal(res.status, 201, res.body);
    return res.json();
  };
  const decide = (stored: any, conditions: unknown[]) => send('PUT', `${CSRS}/${stored.metadata.name}/approval`, { ...stored, status: { conditions } });

  before(async () => {
    server = await startServer();
    request = base64(await certificateRequestPem('CN=e2e-user, O=e2e'));
  });
  after(async () => server?.stop());

  it('records the requester and ignores what the client claims', async () => {
    const res = await send('POST', CSRS, { ...csr('who', { username: 'mallory', groups: ['system:masters'] }), status: { conditions: [decision('Approved')] } });
    assert.equal(res.status, 201, res.body);
    const created = res.json();
    assert.equal(created.spec.username, 'capstan-admin');
    assert.deepEqual(created.spec.groups, ['system:masters', 'system:authenticated']);
    assert.deepEqual(created.status, {}, 'no pre-approved requests');
    assert.equal(created.metadata.generation, undefined);
  });

  it('approves through /approval, stamping the condition', async () => {
    const stored = await create('to-approve');
    const res = await decide({ ...stored, spec: { ...stored.spec, signerName: 'other.io/x' } }, [decision('Approved')]);
    assert.equal(res.status, 200, res.body);
    const approved = res.json();
    assert.equal(approved.spec.signerName, 'example.com/e2e', 'the approval changes conditions only');
    const [condition] = approved.status.conditions;
    assert.equal(condition.type, 'Approved');
    assert.match(condition.lastUpdateTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(condition.lastTransitionTime, condition.lastUpdateTime);
    const read = await send('GET', `${CSRS}/to-approve/approval`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.json().status, approved.status);

    const withdrawn = await decide(approved, []);
    assert.equal(withdrawn.status, 422, withdrawn.body);
    assert.equal(
      withdrawn.json().message,
      'CertificateSigningRequest.certificates.k8s.io "to-approve" is invalid: status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
    );
  });

  it('denies through /approval, and refuses Approved with Denied', async () => {
    const stored = await create('to-deny');
    const both = await decide(stored, [decision('Approved'), decision('Denied')]);
    assert.equal(both.status, 422, both.body);
    assert.equal(
      both.json().message,
      'CertificateSigningRequest.certificates.k8s.io "to-deny" is invalid: status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    );
    const denied = await decide(stored, [decision('Denied')]);
    assert.equal(denied.status, 200, denied.body);
    assert.equal(denied.json().status.conditions[0].type, 'Denied');
  });

  it('refuses invalid requests', async () => {
    const badPem = await send('POST', CSRS, csr('bad-pem', { request: base64('not a request') }));
    assert.equal(badPem.status, 422, badPem.body);
    assert.match(badPem.json().message, /spec\.request: Invalid value: "[A-Za-z0-9+/=]+": PEM block type must be CERTIFICATE REQUEST$/);
    const badUsage = await send('POST', CSRS, csr('bad-usage', { usages: ['client auth', 'world domination'] }));
    assert.equal(badUsage.status, 422, badUsage.body);
    assert.match(badUsage.json().message, /spec\.usages\[1\]: Unsupported value: "world domination": supported values: "any", "cert sign", /);
    const badSigner = await send('POST', CSRS, csr('bad-signer', { signerName: 'signer' }));
    assert.equal(badSigner.status, 422, badSigner.body);
    assert.deepEqual(badSigner.json().details.causes, [{
      reason: 'FieldValueInvalid',
      message: `Invalid value: "signer": must be a fully qualified domain and path of the form 'example.com/signer-name'`,
      field: 'spec.signerName',
    }]);
  });

  it('keeps spec and status on writes to the main resource, and decisions off /status', async () => {
    const stored = await create('frozen');
    const put = await send('PUT', `${CSRS}/frozen`, {
      ...stored, metadata: { ...stored.metadata, labels: { team: 'a' } }, spec: { ...stored.spec, usages: ['server auth'] }, status: { conditions: [decision('Approved')] },
    });
    assert.equal(put.status, 200, put.body);
    assert.deepEqual(put.json().spec.usages, ['digital signature', 'client auth']);
    assert.deepEqual(put.json().status, {});
    assert.deepEqual(put.json().metadata.labels, { team: 'a' });
    const patched = await send('PATCH', `${CSRS}/frozen`, { status: { conditions: [decision('Approved')] } }, MERGE);
    assert.equal(patched.status, 200, patched.body);
    assert.deepEqual(patched.json().status, {});
    const viaStatus = await send('PATCH', `${CSRS}/frozen/status`, { status: { conditions: [decision('Approved')] } }, MERGE);
    assert.equal(viaStatus.status, 422, viaStatus.body);
    assert.match(viaStatus.json().message, /status\.conditions: Forbidden: updates may not add a condition of type "Approved"$/);
  });

  it('answers malformed bodies with a 400 Status', async () => {
    const stored = await create('malformed');
    const cases: [string, string, unknown][] = [
      ['POST', CSRS, '{"metadata": '],
      ['POST', CSRS, csr('not-base64', { request: 'not base64!' })],
      ['PUT', `${CSRS}/malformed/approval`, { ...stored, status: { conditions: 'Approved' } }],
      ['PUT', `${CSRS}/malformed/approval`, { ...stored, status: { conditions: [{ type: 7 }] } }],
      ['PUT', `${CSRS}/malformed/approval`, '[]'],
    ];
    for (const [method, path, body] of cases) {
      const res = await send(method, path, body);
      assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().kind, 'Status');
    }
    assert.equal((await send('GET', `${CSRS}/malformed`)).status, 200, 'the server is still up');
  });

  it('works with kubectl certificate approve and deny', { skip: pinnedKubectl() === undefined }, async () => {
    await create('kubectl-yes');
    await create('kubectl-no');
    const approve = server.kubectl(['certificate', 'approve', 'kubectl-yes']);
    assert.equal(approve.code, 0, approve.stderr);
    assert.match(approve.stdout, /certificatesigningrequest.certificates.k8s.io\/kubectl-yes approved/);
    const deny = server.kubectl(['certificate', 'deny', 'kubectl-no']);
    assert.equal(deny.code, 0, deny.stderr);
    assert.match(deny.stdout, /certificatesigningrequest.certificates.k8s.io\/kubectl-no denied/);
    const list = server.kubectl(['get', 'csr', 'kubectl-yes', 'kubectl-no']);
    assert.equal(list.code, 0, list.stderr);
    const condition = (name: string) => list.stdout.split('\n').find((line) => line.startsWith(`${name} `))?.trim().split(/\s+/).pop();
    assert.match(list.stdout, /^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION/);
    assert.equal(condition('kubectl-yes'), 'Approved');
    assert.equal(condition('kubectl-no'), 'Denied');
  });
});
