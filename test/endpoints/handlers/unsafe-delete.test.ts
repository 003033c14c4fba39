/**
 * DELETE with ignoreStoreReadErrorWithClusterBreakingPotential over HTTP, as upstream's delete
 * handler answers it: the resource handler in a real server, over the registry of a real SQLite
 * store, with an authorizer the test controls for the extra verb.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, RuleResolver, RuleSet } from '../../../src/auth/authorizer.js';
import { EncodingMemo } from '../../../src/endpoints/encoding-memo.js';
import { FlushQueue } from '../../../src/endpoints/handlers/flush-queue.js';
import { createResourceHandler } from '../../../src/endpoints/resource-handler.js';
import type { EndpointEnv } from '../../../src/endpoints/scope.js';
import { loadBuiltinCatalog } from '../../../src/registry/catalog/builtin-catalog.js';
import { CodecRegistry } from '../../../src/serialization/codec.js';
import { standardCodecs } from '../../../src/serialization/standard-codecs.js';
import { CM_KEY, configMap, withStores, WRITE, type StoreFixture } from '../../registry/store/store-fixture.js';
import { startTestServer, type TestServer } from '../../server/test-server.js';
import type { TestResponse } from '../../server/test-client.js';

const VERB = 'unsafe-delete-ignore-read-errors';
const OPTION = 'ignoreStoreReadErrorWithClusterBreakingPotential';
const CM_PATH = '/api/v1/namespaces/ns1/configmaps/a';
const GATE_ON = { AllowUnsafeMalformedObjectDeletion: true };

/** Allows everything, except the extra verb when told to refuse it (or to fail asking). */
class TestAuthorizer implements Authorizer, RuleResolver {
  refuse: string | undefined;
  fail: Error | undefined;
  readonly unsafeAsks: AuthorizationAttributes[] = [];

  authorize(attributes: AuthorizationAttributes): AuthorizationResult {
    if (attributes.verb !== VERB) return { decision: 'allow', reason: '' };
    this.unsafeAsks.push(attributes);
    if (this.fail) throw this.fail;
    return this.refuse === undefined ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: this.refuse };
  }

  rulesFor(): RuleSet {
    return { resourceRules: [], nonResourceRules: [], incomplete: true };
  }
}

interface Harness {
  readonly f: StoreFixture;
  readonly server: TestServer;
  readonly authorizer: TestAuthorizer;
  /** DELETE of `path` as the admin, with a JSON body when given. */
  del(path: string, body?: unknown): Promise<TestResponse>;
  /** Creates ConfigMap ns1/a (with finalizers when given) and overwrites its stored bytes with some that do not decode. */
  corruptConfigMap(finalizers?: string[]): Promise<void>;
}

function withServer(featureGates: Record<string, boolean>, body: (h: Harness) => Promise<void>): Promise<void> {
  return withStores(async (f) => {
    const authorizer = new TestAuthorizer();
    const catalog = loadBuiltinCatalog();
    const env: EndpointEnv = {
      codecs: new CodecRegistry(standardCodecs().codecs),
      checkFields: undefined,
      patchersFor: () => Promise.reject(new Error('no patches here')),
      minRequestTimeoutSeconds: 1800,
      deleteCollectionWorkers: 1,
      encodings: new EncodingMemo(1 << 20),
      watchFlushes: new FlushQueue(),
      featureGates,
    };
    // The handler chain allows everything (AlwaysAllow); the extra verb goes to the test's authorizer.
    const server = await startTestServer({
      configure: (s) => s.setResourceHandler(createResourceHandler({ catalog: () => catalog, registry: f.registry, env, reviewers: { authorizer, tokens: s } })),
    });
    const del = (path: string, payload?: unknown) => {
      if (payload === undefined) return server.admin(path, { method: 'DELETE' });
      // HTTP/1.1 with a length: Node's HTTP/2 client ends a DELETE's stream before any body, and
      // its HTTP/1.1 client sends a DELETE's body unframed unless told the length.
      const body = JSON.stringify(payload);
      const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
      return server.admin(path, { method: 'DELETE', body, headers, http1: true });
    };
    const corruptConfigMap = async (finalizers?: string[]) => {
      await f.store('', 'configmaps').create('ns1', configMap('a', { k: 'v' }, finalizers ? { finalizers } : {}), WRITE);
      const { kv } = await f.storage.get(CM_KEY);
      await f.storage.update(CM_KEY, Buffer.from('{"kind":"ConfigMap",'), kv!.modRevision);
    };
    try {
      await body({ f, server, authorizer, del, corruptConfigMap });
    } finally {
      await server.close();
    }
  });
}

function json(response: TestResponse): Record<string, unknown> {
  return JSON.parse(response.body) as Record<string, unknown>;
}

/** Asserts the status code and the Status's message. */
function assertStatus(response: TestResponse, code: number, message: string | RegExp): Record<string, unknown> {
  const status = json(response);
  assert.equal(response.status, code, response.body);
  if (typeof message === 'string') assert.equal(status['message'], message);
  else assert.match(String(status['message']), message);
  return status;
}

const CANNOT_DECODE = /^Internal error occurred: object stored at \/registry\/configmaps\/ns1\/a cannot be decoded: /;

describe('DELETE with ignoreStoreReadErrorWithClusterBreakingPotential', () => {
  it('is ignored with the feature gate off: a corrupt object stays a 500, a readable one is deleted as usual', () =>
    withServer({}, async (h) => {
      await h.corruptConfigMap();
      assertStatus(await h.del(CM_PATH, { [OPTION]: true }), 500, CANNOT_DECODE);
      await h.f.store('', 'configmaps').create('ns1', configMap('b'), WRITE);
      // Not even checked against the other options: the option is dropped before anything looks.
      const response = await h.del(`/api/v1/namespaces/ns1/configmaps/b?${OPTION}=true&gracePeriodSeconds=0`);
      assert.equal(response.status, 200, response.body);
      assert.equal(json(response)['status'], 'Success');
      assert.deepEqual(h.authorizer.unsafeAsks, []);
      assert.ok((await h.f.storage.get(CM_KEY)).kv, 'the corrupt object is still stored');
    }));

  it('a corrupt object without the option is a 500, as its reads are', () =>
    withServer(GATE_ON, async (h) => {
      await h.corruptConfigMap();
      const status = assertStatus(await h.del(CM_PATH), 500, CANNOT_DECODE);
      assert.equal(status['reason'], 'InternalError');
      assertStatus(await h.server.admin(CM_PATH), 500, CANNOT_DECODE);
      assert.deepEqual(h.authorizer.unsafeAsks, []);
    }));

  it('force deletes a corrupt object held by finalizers when the caller may do both verbs', () =>
    withServer(GATE_ON, async (h) => {
      await h.corruptConfigMap(['example.com/hold']);
      await h.f.store('', 'configmaps').create('ns1', configMap('b'), WRITE);
      const response = await h.del(CM_PATH, { kind: 'DeleteOptions', apiVersion: 'v1', [OPTION]: true });
      assert.equal(response.status, 200, response.body);
      assert.deepEqual(json(response), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'a', kind: 'ConfigMap' }, code: 200 });
      assert.equal((await h.f.storage.get(CM_KEY)).kv, undefined);
      assertStatus(await h.server.admin(CM_PATH), 404, 'configmaps "a" not found');
      const list = json(await h.server.admin('/api/v1/namespaces/ns1/configmaps'));
      assert.deepEqual((list['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name), ['b']);
      assert.equal(h.authorizer.unsafeAsks.length, 1);
      const { user, ...asked } = h.authorizer.unsafeAsks[0]!;
      assert.ok(user.groups.includes('system:masters'), 'asked for the caller');
      assert.deepEqual(asked, {
        verb: VERB, isResourceRequest: true, path: '', namespace: 'ns1', apiGroup: '', apiVersion: 'v1', resource: 'configmaps', subresource: '', name: 'a',
      });
    }));

  it('takes the option from the query too', () =>
    withServer(GATE_ON, async (h) => {
      await h.corruptConfigMap();
      const response = await h.del(`${CM_PATH}?${OPTION}=true`);
      assert.equal(response.status, 200, response.body);
      assert.equal((await h.f.storage.get(CM_KEY)).kv, undefined);
    }));

  it('is 403 when the caller may not do unsafe-delete-ignore-read-errors, and the object stays', () =>
    withServer(GATE_ON, async (h) => {
      await h.corruptConfigMap();
      h.authorizer.refuse = 'no unsafe deletes for you';
      const status = assertStatus(
        await h.del(CM_PATH, { [OPTION]: true }),
        403,
        'configmaps "a" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: no unsafe deletes for you',
      );
      assert.equal(status['reason'], 'Forbidden');
      assert.deepEqual(status['details'], { name: 'a', kind: 'configmaps' });
      assert.ok((await h.f.storage.get(CM_KEY)).kv, 'still stored');
    }));

  it('is 403 when the authorizer fails', () =>
    withServer(GATE_ON, async (h) => {
      await h.corruptConfigMap();
      h.authorizer.fail = new Error('webhook down');
      assertStatus(
        await h.del(CM_PATH, { [OPTION]: true }),
        403,
        'configmaps "a" is forbidden: error while checking permission for "unsafe-delete-ignore-read-errors", webhook down',
      );
    }));

  it('aborts with 422 on a readable object, which stays', () =>
    withServer(GATE_ON, async (h) => {
      await h.f.store('', 'configmaps').create('ns1', configMap('a'), WRITE);
      const why = 'Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option';
      const status = assertStatus(await h.del(CM_PATH, { [OPTION]: true }), 422, `configmaps "a" is invalid: ${OPTION}: ${why}`);
      assert.deepEqual(status['details'], { name: 'a', kind: 'configmaps', causes: [{ reason: 'FieldValueInvalid', message: why, field: OPTION }] });
      assert.equal(h.authorizer.unsafeAsks.length, 1, 'authorized before the object is looked at');
      assert.equal((await h.server.admin(CM_PATH)).status, 200);
    }));

  const clashes: { name: string; query?: string; body?: Record<string, unknown>; fields: string[] }[] = [
    { name: 'dryRun', query: 'dryRun=All', fields: ['dryRun'] },
    { name: 'gracePeriodSeconds', query: 'gracePeriodSeconds=0', fields: ['gracePeriodSeconds'] },
    { name: 'orphanDependents', body: { orphanDependents: false }, fields: ['orphanDependents'] },
    { name: 'propagationPolicy', body: { propagationPolicy: 'Background' }, fields: ['propagationPolicy'] },
    { name: 'preconditions', body: { preconditions: {} }, fields: ['preconditions'] },
    { name: 'several, in upstream\'s order', body: { preconditions: { uid: 'x' }, gracePeriodSeconds: 5, dryRun: ['All'] }, fields: ['dryRun', 'gracePeriodSeconds', 'preconditions'] },
  ];
  for (const c of clashes) {
    it(`is 422 with ${c.name} set as well`, () =>
      withServer(GATE_ON, async (h) => {
        await h.corruptConfigMap();
        const path = c.query === undefined ? CM_PATH : `${CM_PATH}?${c.query}`;
        const response = await h.del(path, { [OPTION]: true, ...c.body });
        const causes = c.fields.map((field) => ({ reason: 'FieldValueInvalid', message: `Invalid value: true: cannot be set together with .${field}`, field: OPTION }));
        const parts = causes.map((cause) => `${OPTION}: ${cause.message}`);
        const summary = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
        const status = assertStatus(response, 422, `DeleteOptions.meta.k8s.io "" is invalid: ${summary}`);
        assert.deepEqual(status['details'], { group: 'meta.k8s.io', kind: 'DeleteOptions', causes });
        assert.deepEqual(h.authorizer.unsafeAsks, []);
        assert.ok((await h.f.storage.get(CM_KEY)).kv, 'still stored');
      }));
  }

  it('is 422 on a deletecollection with the gate on, and ignored with it off', async () => {
    await withServer(GATE_ON, async (h) => {
      await h.f.store('', 'configmaps').create('ns1', configMap('a'), WRITE);
      assertStatus(
        await h.del(`/api/v1/namespaces/ns1/configmaps?${OPTION}=true`),
        422,
        `DeleteOptions.meta.k8s.io "" is invalid: ${OPTION}: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option`,
      );
      assert.ok((await h.f.storage.get(CM_KEY)).kv, 'nothing deleted');
    });
    await withServer({}, async (h) => {
      await h.f.store('', 'configmaps').create('ns1', configMap('a'), WRITE);
      assert.equal((await h.del(`/api/v1/namespaces/ns1/configmaps?${OPTION}=true`)).status, 200);
      assert.equal((await h.f.storage.get(CM_KEY)).kv, undefined);
    });
  });
});

describe('LIST over undecodable objects', () => {
  it('with the gate on, is 500 StorageReadError naming each corrupt key, so an operator knows what to delete', () =>
    withServer(GATE_ON, async (h) => {
      await h.corruptConfigMap();
      const status = assertStatus(await h.server.admin('/api/v1/namespaces/ns1/configmaps'), 500, 'failed to read one or more configmaps from the storage');
      assert.equal(status['reason'], 'StorageReadError');
      const details = status['details'] as { name: string; kind: string; causes: { reason: string; message: string; field: string }[] };
      assert.equal(details.name, 'list');
      assert.equal(details.kind, 'configmaps');
      assert.deepEqual(details.causes.map((c) => [c.reason, c.field]), [['UnexpectedServerResponse', CM_KEY]]);
      assert.match(details.causes[0]!.message, /^StorageError: corrupt object, Code: 7, Key: \/registry\/configmaps\/ns1\/a, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=\d+: /);
    }));

  it('with the gate off, stays the InternalError it was', () =>
    withServer({}, async (h) => {
      await h.corruptConfigMap();
      const status = json(await h.server.admin('/api/v1/namespaces/ns1/configmaps'));
      assert.equal(status['code'], 500);
      assert.equal(status['reason'], 'InternalError');
    }));
});
