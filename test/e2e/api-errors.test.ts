/**
 * Bad input and the error shapes clients rely on, against the real server: every failure is a
 * Status with upstream's reason, code and message (the golden responses of a real 1.32 server),
 * never a crash, a hang or lost data.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createNamespace, credentialsOf, startServer, type TestServer } from './harness.js';

const CMS = '/api/v1/namespaces/golden/configmaps';

describe('errors and golden shapes', () => {
  let server: TestServer;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => server.request(path, { method: 'POST', body, headers });

  before(async () => {
    server = await startServer();
    await createNamespace(server, 'golden');
    assert.equal((await post(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } })).status, 201);
  });
  after(async () => server?.stop());

  it('404 NotFound', async () => {
    const res = await server.request(`${CMS}/nope`);
    assert.equal(res.status, 404);
    assert.deepEqual(res.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "nope" not found',
      reason: 'NotFound', details: { name: 'nope', kind: 'configmaps' }, code: 404,
    });
  });

  it('409 AlreadyExists', async () => {
    const res = await post(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } });
    assert.equal(res.status, 409);
    assert.deepEqual(res.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "cm1" already exists',
      reason: 'AlreadyExists', details: { name: 'cm1', kind: 'configmaps' }, code: 409,
    });
  });

  it('422 Invalid name with upstream\'s message', async () => {
    const res = await post(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } });
    assert.equal(res.status, 422);
    const body = res.json();
    assert.equal(body.reason, 'Invalid');
    assert.equal(
      body.message,
      'ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    );
    assert.deepEqual(body.details.causes.map((c: any) => [c.reason, c.field]), [['FieldValueInvalid', 'metadata.name']]);
  });

  it('409 Conflict for a stale resourceVersion on PUT', async () => {
    const res = await server.request(`${CMS}/cm1`, { method: 'PUT', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1', resourceVersion: '1' }, data: { a: 'c' } } });
    assert.equal(res.status, 409);
    assert.equal(res.json().message, 'Operation cannot be fulfilled on configmaps "cm1": the object has been modified; please apply your changes to the latest version and try again');
    assert.equal(res.json().reason, 'Conflict');
  });

  it('400 for strict field validation, listing every unknown and duplicate field', async () => {
    const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm2","bogus":1},"data":{"a":"b"},"extra":true,"data":{"x":"y"}}';
    const res = await post(`${CMS}?fieldValidation=Strict`, body);
    assert.equal(res.status, 400);
    assert.equal(res.json().message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", unknown field "extra", duplicate field "data"');
    assert.equal((await server.request(`${CMS}/cm2`)).status, 404, 'nothing was stored');
  });

  it('Warning headers for unknown fields by default, and the fields are dropped', async () => {
    const res = await post(CMS, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm3","bogus":1},"data":{"a":"b"},"extra":true}');
    assert.equal(res.status, 201);
    assert.deepEqual(res.headers['warning'], '299 - "unknown field \\"metadata.bogus\\"", 299 - "unknown field \\"extra\\""');
    assert.equal(res.json().extra, undefined);
  });

  it('400 for malformed JSON, a non-object body and a wrong type', async () => {
    for (const body of ['{"apiVersion":', '[1,2]', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t"},"data":{"a":1}}']) {
      const res = await post(CMS, body);
      assert.equal(res.status, 400, body);
      assert.equal(res.json().kind, 'Status');
      assert.equal(res.json().reason, 'BadRequest');
    }
  });

  it('413 for an oversize body, and the server keeps serving', async () => {
    const huge = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'huge' }, data: { a: 'x'.repeat(4 * 1024 * 1024) } });
    const res = await post(CMS, huge);
    assert.equal(res.status, 413);
    assert.equal(res.json().reason, 'RequestEntityTooLarge');
    assert.equal((await server.request(`${CMS}/cm1`)).status, 200);
  });

  /**
   * POSTs to CMS on a connection of its own, writing `write`'s pieces; resolves with the answer's
   * status, reason and Connection header. Fails after 10 s rather than hang on a server that waits.
   */
  function rawPost(headers: Record<string, string | number>, write: (req: ClientRequest) => void): Promise<{ code: number; reason: string; connection: string | undefined }> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        {
          // Asks to keep the connection, so that the server's Connection header is its own choice.
          host: '127.0.0.1', port: server.port, path: CMS, method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', Connection: 'keep-alive', ...headers },
          ...credentialsOf(server.kubeconfig),
        },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d));
          res.on('end', () => {
            req.destroy(); // leaves no kept-alive connection behind
            try {
              resolve({ code: res.statusCode!, reason: JSON.parse(body).reason, connection: res.headers.connection });
            } catch {
              reject(new Error(`HTTP ${res.statusCode}: not a Status: ${body.slice(0, 200)}`));
            }
          });
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
      req.on('error', reject);
      write(req);
    });
  }

  it('413 for an oversize body sent in chunks without a length, which the client gets', async () => {
    const status = await rawPost({}, (req) => {
      const piece = 'x'.repeat(256 * 1024);
      req.write('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"chunked"},"data":{"a":"');
      for (let i = 0; i < 16; i++) req.write(piece);
      req.end('"}}');
    });
    // Read to its end, the body left nothing behind: the connection may stay.
    assert.deepEqual(status, { code: 413, reason: 'RequestEntityTooLarge', connection: 'keep-alive' });
    assert.equal((await server.request(`${CMS}/cm1`)).status, 200);
  });

  it('413 at once, before any body, for a declared length far past the limit', async () => {
    // 1 GiB declared, nothing sent: the server must neither wait for it nor read it.
    const status = await rawPost({ 'Content-Length': 2 ** 30 }, (req) => req.flushHeaders());
    // The rest of the body would be the next request's start: the connection ends with the answer.
    assert.deepEqual(status, { code: 413, reason: 'RequestEntityTooLarge', connection: 'close' });
  });

  it('415 for an unknown Content-Type', async () => {
    const res = await post(CMS, 'a=b', { 'Content-Type': 'text/plain' });
    assert.equal(res.status, 415);
    assert.equal(res.json().reason, 'UnsupportedMediaType');
  });

  it('406 when no acceptable media type is served', async () => {
    const res = await server.request(`${CMS}/cm1`, { headers: { Accept: 'application/xml' } });
    assert.equal(res.status, 406);
    assert.equal(res.json().reason, 'NotAcceptable');
  });

  it('422 for a failed JSON Patch test operation', async () => {
    const res = await server.request(`${CMS}/cm1`, { method: 'PATCH', body: '[{"op":"test","path":"/data/a","value":"zzz"}]', headers: { 'Content-Type': 'application/json-patch+json' } });
    assert.equal(res.status, 422);
    assert.equal(res.json().reason, 'Invalid');
  });

  it('a delete answers with a Success Status naming the object', async () => {
    const created = (await post(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gone' } })).json();
    const res = await server.request(`${CMS}/gone`, { method: 'DELETE' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'gone', kind: 'configmaps', uid: created.metadata.uid } });
  });

  it('creating in a missing namespace is 404; in a terminating one 403', async () => {
    const missing = await post('/api/v1/namespaces/nowhere/configmaps', { metadata: { name: 'x' } });
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'namespaces "nowhere" not found');
    assert.equal((await post('/api/v1/namespaces', { metadata: { name: 'ending' } })).status, 201);
    assert.equal((await post('/api/v1/namespaces/ending/configmaps', { metadata: { name: 'keep', finalizers: ['example.com/hold'] } })).status, 201);
    const deleting = await server.request('/api/v1/namespaces/ending', { method: 'DELETE' });
    assert.equal(deleting.status, 200);
    assert.equal(deleting.json().status.phase, 'Terminating');
    const refused = await post('/api/v1/namespaces/ending/configmaps', { metadata: { name: 'y' } });
    assert.equal(refused.status, 403);
    assert.match(refused.json().message, /unable to create new content in namespace ending because it is being terminated/);
  });

  it('the namespace controller empties a deleted namespace and then removes it', async () => {
    assert.equal((await post('/api/v1/namespaces', { metadata: { name: 'doomed' } })).status, 201);
    assert.equal((await post('/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'a' } })).status, 201);
    assert.equal((await server.request('/api/v1/namespaces/doomed', { method: 'DELETE' })).status, 200);
    let status = 200;
    for (let i = 0; i < 100 && status !== 404; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await server.request('/api/v1/namespaces/doomed')).status;
    }
    assert.equal(status, 404);
    assert.equal((await server.request('/api/v1/namespaces/doomed/configmaps/a')).status, 404);
  });

  it('the system namespaces may not be deleted', async () => {
    const res = await server.request('/api/v1/namespaces/kube-system', { method: 'DELETE' });
    assert.equal(res.status, 403);
  });

  it('dry-run writes store nothing', async () => {
    const created = await post(`${CMS}?dryRun=All`, { metadata: { name: 'dry' } });
    assert.equal(created.status, 201);
    assert.equal((await server.request(`${CMS}/dry`)).status, 404);
    const deleted = await server.request(`${CMS}/cm1?dryRun=All`, { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.equal((await server.request(`${CMS}/cm1`)).status, 200);
  });

  it('refuses a dryRun or fieldValidation value it does not know with upstream\'s 422, and does nothing', async () => {
    const unknownInBody = await server.request(`${CMS}/cm1`, { method: 'DELETE', body: { dryRun: ['Foo'] } });
    assert.equal(unknownInBody.status, 422, unknownInBody.body);
    assert.equal(unknownInBody.json().message, 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Foo"]: supported values: "All"');
    assert.equal((await server.request(`${CMS}/cm1`)).status, 200, 'a misspelled dry run deletes nothing');
    const unknownInQuery = await post(`${CMS}?dryRun=Foo`, { metadata: { name: 'dry-foo' } });
    assert.equal(unknownInQuery.status, 422, unknownInQuery.body);
    assert.equal(unknownInQuery.json().message, 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Foo"]: supported values: "All"');
    assert.deepEqual(unknownInQuery.json().details, {
      group: 'meta.k8s.io',
      kind: 'CreateOptions',
      causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: ["Foo"]: supported values: "All"', field: 'dryRun' }],
    });
    const empty = await post(`${CMS}?dryRun=`, { metadata: { name: 'dry-empty' } });
    assert.equal(empty.status, 422, empty.body);
    assert.match(empty.json().message, /dryRun: Unsupported value: \[""\]/);
    const level = await server.request(`${CMS}/cm1?fieldValidation=Bogus`, { method: 'PATCH', body: { data: { a: 'b' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(level.status, 422, level.body);
    assert.equal(level.json().message, 'PatchOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"');
    assert.equal((await server.request(`${CMS}/dry-foo`)).status, 404);
  });

  it('delete preconditions on uid and resourceVersion', async () => {
    const res = await server.request(`${CMS}/cm1`, { method: 'DELETE', body: { preconditions: { uid: 'not-the-uid' } } });
    assert.equal(res.status, 409);
    // Upstream's rest.BeforeDelete words it, on the kind.
    assert.match(res.json().message, /^Operation cannot be fulfilled on ConfigMap "cm1": the UID in the precondition \(not-the-uid\) does not match the UID in record \(.+\)\. The object might have been deleted and then recreated$/);
    assert.equal(res.json().details.kind, 'ConfigMap');
  });

  it('a bad bearer token without a certificate is 401; with a valid certificate the certificate wins', async () => {
    const anonymous = await server.request(CMS, { anonymous: true, headers: { Authorization: 'Bearer bogus' } });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json().reason, 'Unauthorized');
    const withCert = await server.request(CMS, { headers: { Authorization: 'Bearer bogus' } });
    assert.equal(withCert.status, 200);
  });

  it('Table and PartialObjectMetadataList lists as kubectl asks for them', async () => {
    const table = await server.request(CMS, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    assert.equal(table.status, 200);
    assert.equal(table.json().kind, 'Table');
    assert.deepEqual(table.json().columnDefinitions.map((c: any) => c.name), ['Name', 'Data', 'Age']);
    const pom = await server.request(CMS, { headers: { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' } });
    assert.equal(pom.json().kind, 'PartialObjectMetadataList');
    assert.equal(pom.json().items[0].kind, 'PartialObjectMetadata');
    assert.equal(pom.json().items[0].data, undefined);
  });

  it('YAML in and out', async () => {
    const res = await post(CMS, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yml\ndata:\n  k: v\n', { 'Content-Type': 'application/yaml', Accept: 'application/yaml' });
    assert.equal(res.status, 201);
    assert.equal(res.headers['content-type'], 'application/yaml');
    assert.match(res.body, /^apiVersion: v1\n/m);
    assert.match(res.body, /name: yml/);
  });

  it('aggregated discovery answers in the spelling the client asked with', async () => {
    for (const group of ['apidiscovery.k8s.io', 'apidiscovery.cluster.io']) {
      const res = await server.request('/apis', { headers: { Accept: `application/json;g=${group};v=v2;as=APIGroupDiscoveryList,application/json` } });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], `application/json;g=${group};v=v2;as=APIGroupDiscoveryList`);
      assert.equal(res.json().apiVersion, `${group}/v2`);
      assert.ok(res.json().items.some((g: any) => g.metadata.name === 'apps'));
    }
    const legacy = await server.request('/apis', { headers: { Accept: 'application/json' } });
    assert.equal(legacy.json().kind, 'APIGroupList');
  });

  it('/readyz?verbose lists named checks and ?exclude drops one', async () => {
    const res = await server.request('/readyz?verbose');
    assert.equal(res.status, 200);
    assert.match(res.body, /^\[\+\]ping ok$/m);
    assert.match(res.body, /^\[\+\]etcd ok$/m);
    assert.match(res.body, /readyz check passed/);
    const excluded = await server.request('/readyz?verbose&exclude=etcd');
    assert.doesNotMatch(excluded.body, /^\[\+\]etcd ok$/m);
  });
});
