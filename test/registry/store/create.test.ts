/** The generic store's create, as upstream's Store.Create and rest.BeforeCreate. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NAME_SUFFIX_ALPHABET } from '../../../src/validation/generate-name.js';
import { CM_KEY, configMap, deployment, DRY_RUN, NOW_STAMP, rejectsWith, stored, withStores, WRITE } from './store-fixture.js';

test('create sets uid, creationTimestamp and resourceVersion, replacing what the client sent', () =>
  withStores(async (f) => {
    const body = configMap('a', { k: 'v' }, { uid: 'client-uid', creationTimestamp: '2000-01-01T00:00:00Z', deletionTimestamp: '2000-01-01T00:00:00Z', selfLink: '/x' });
    const created = await f.store('', 'configmaps').create('ns1', body, WRITE);
    const { kv } = await f.storage.get(CM_KEY);
    assert.ok(kv, 'the object was not written');
    assert.deepEqual(created.metadata, {
      name: 'a',
      namespace: 'ns1',
      uid: 'uid-1',
      creationTimestamp: NOW_STAMP,
      resourceVersion: String(kv.modRevision),
    });
    assert.deepEqual(await stored(f, CM_KEY), created);
  }));

test('a cluster-scoped object loses the namespace it was sent with', () =>
  withStores(async (f) => {
    const created = await f.store('', 'namespaces').create('', { metadata: { name: 'team', namespace: 'elsewhere' } }, WRITE);
    assert.equal(created.metadata?.namespace, undefined);
    assert.ok((await f.storage.get('/registry/namespaces/team')).kv, 'not stored under the cluster-scoped key');
  }));

test('generateName: the prefix plus five characters of the suffix alphabet, stored under that name', () =>
  withStores(async (f) => {
    const created = await f.store('', 'configmaps').create('ns1', configMap('', { k: 'v' }, { generateName: 'cm-' }), WRITE);
    const name = created.metadata?.name ?? '';
    assert.match(name, new RegExp(`^cm-[${NAME_SUFFIX_ALPHABET}]{5}$`));
    assert.equal(created.metadata?.generateName, 'cm-');
    assert.ok((await f.storage.get(`/registry/configmaps/ns1/${name}`)).kv, `${name} not stored`);
  }));

test('a taken name is 409 AlreadyExists in upstream words, and the stored object stays', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    await configMaps.create('ns1', configMap('a', { k: 'first' }), WRITE);
    const err = await rejectsWith(configMaps.create('ns1', configMap('a', { k: 'second' }), WRITE), 409, 'AlreadyExists', 'configmaps "a" already exists');
    assert.deepEqual(err.details, { name: 'a', kind: 'configmaps' });
    assert.deepEqual((await stored(f, CM_KEY))?.['data'], { k: 'first' });
    const deployments = f.store('apps', 'deployments');
    await deployments.create('ns1', deployment('d'), WRITE);
    await rejectsWith(deployments.create('ns1', deployment('d'), WRITE), 409, 'AlreadyExists', 'deployments.apps "d" already exists');
  }));

test('a namespace in the body other than the request\'s is 400 and nothing is written', () =>
  withStores(async (f) => {
    const before = await f.storage.currentRevision();
    await rejectsWith(
      f.store('', 'configmaps').create('ns1', configMap('a', { k: 'v' }, { namespace: 'ns2' }), WRITE),
      400,
      'BadRequest',
      'the namespace of the provided object does not match the namespace sent on the request',
    );
    assert.equal(await f.storage.currentRevision(), before);
  }));

test('a dry run returns the object it would create and writes nothing; a taken name is still 409', () =>
  withStores(async (f) => {
    const configMaps = f.store('', 'configmaps');
    const before = await f.storage.currentRevision();
    const created = await configMaps.create('ns1', configMap('a'), DRY_RUN);
    assert.equal(created.metadata?.uid, 'uid-1');
    assert.equal(created.metadata?.creationTimestamp, NOW_STAMP);
    assert.equal(await f.storage.currentRevision(), before);
    assert.equal((await f.storage.get(CM_KEY)).kv, undefined);
    await configMaps.create('ns1', configMap('a'), WRITE);
    await rejectsWith(configMaps.create('ns1', configMap('a'), DRY_RUN), 409, 'AlreadyExists', 'configmaps "a" already exists');
  }));

test('the strategy\'s validation failures are 422 Invalid, one cause a field', () =>
  withStores(async (f) => {
    const err = await rejectsWith(
      f.store('', 'configmaps').create('ns1', configMap('a', { 'bad key': 'v' }), WRITE),
      422,
      'Invalid',
      'ConfigMap "a" is invalid: data[bad key]: Invalid value: "bad key": ' +
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
    assert.deepEqual(err.details?.causes?.map((c) => [c.reason, c.field]), [['FieldValueInvalid', 'data[bad key]']]);
    assert.equal((await f.storage.get(CM_KEY)).kv, undefined);
  }));

test('metadata is validated with the type\'s own name rule', async (t) => {
  const subdomain =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
    "(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  const cases: { name: string; resource: string; namespace: string; metadata: Record<string, unknown>; message: string }[] = [
    { name: 'no name', resource: 'configmaps', namespace: 'ns1', metadata: {}, message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required' },
    { name: 'bad subdomain', resource: 'configmaps', namespace: 'ns1', metadata: { name: 'Bad_Name' }, message: `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${subdomain}` },
    // A valid subdomain, but Namespaces take a DNS label.
    { name: 'dots in a namespace name', resource: 'namespaces', namespace: '', metadata: { name: 'a.b' }, message: 'Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots' },
  ];
  for (const c of cases) {
    await t.test(c.name, () =>
      withStores(async (f) => {
        await rejectsWith(f.store('', c.resource).create(c.namespace, { metadata: c.metadata, data: {} }, WRITE), 422, 'Invalid', c.message);
      }));
  }
});
