import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/registry/object.js';
import { created, ctx, messages, strategy, updated } from './fixtures.js';

const secrets = () => strategy('', 'secrets');
const b64 = (s: string) => Buffer.from(s).toString('base64');

test('defaults as the golden secret: type Opaque', () => {
  assert.deepEqual(created(secrets(), { metadata: { name: 'sec1' }, data: { a: 'Yg==' } }), {
    metadata: { name: 'sec1' },
    data: { a: 'Yg==' },
    type: 'Opaque',
  });
});

test('stringData is merged into data as base64 and removed; it wins over data', () => {
  const secret = created(secrets(), { metadata: { name: 's' }, data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new', c: 'ü' } });
  assert.deepEqual(secret['data'], { a: b64('new'), b: b64('keep'), c: b64('ü') });
  assert.equal(secret['stringData'], undefined);
  const update = updated(secrets(), { metadata: { name: 's' }, stringData: { z: '1' }, type: 'Opaque' }, secret);
  assert.deepEqual(update['data'], { z: b64('1') });
});

test('each built-in type requires its keys, in upstream words and in either spelling', () => {
  const cases: [string, KubeObject, string[]][] = [
    ['opaque', { type: 'Opaque' }, []],
    ['sa token', { type: 'kubernetes.io/service-account-token' }, ['metadata.annotations[kubernetes.io/service-account.name]: Required value']],
    [
      'sa token ok',
      { type: 'kubernetes.io/service-account-token', metadata: { name: 's', annotations: { 'kubernetes.io/service-account.name': 'default' } } },
      [],
    ],
    ['cluster sa token', { type: 'cluster.io/service-account-token' }, ['metadata.annotations[cluster.io/service-account.name]: Required value']],
    ['dockerconfigjson', { type: 'kubernetes.io/dockerconfigjson' }, ['data[.dockerconfigjson]: Required value']],
    [
      'dockerconfigjson bad json',
      { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('xyz') } },
      ['data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character \'x\' looking for beginning of value'],
    ],
    ['dockerconfigjson ok', { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } }, []],
    ['dockercfg', { type: 'kubernetes.io/dockercfg' }, ['data[.dockercfg]: Required value']],
    ['basic-auth', { type: 'kubernetes.io/basic-auth' }, ['data[username]: Required value', 'data[password]: Required value']],
    ['basic-auth password only', { type: 'kubernetes.io/basic-auth', data: { password: '' } }, []],
    ['ssh-auth', { type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } }, ['data[ssh-privatekey]: Required value']],
    ['tls', { type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c') } }, ['data[tls.key]: Required value']],
    ['cluster tls', { type: 'cluster.io/tls' }, ['data[tls.crt]: Required value', 'data[tls.key]: Required value']],
    ['bootstrap token (both spellings)', { type: 'bootstrap.cluster.io/token' }, []],
  ];
  for (const [name, object, expected] of cases) {
    const secret = created(secrets(), { metadata: { name: 's' }, ...object });
    assert.deepEqual(messages(secrets().validate(secret, ctx())), expected, name);
  }
});

test('the type may never change', () => {
  const old = created(secrets(), { metadata: { name: 's' } });
  const next = updated(secrets(), { metadata: { name: 's' }, type: 'example.com/x' }, old);
  assert.deepEqual(messages(secrets().validateUpdate(next, old, ctx())), ['type: Invalid value: "example.com/x": field is immutable']);
});

test('immutable secrets keep their data and flag; stringData counts as a data change', () => {
  const old = created(secrets(), { metadata: { name: 's' }, data: { a: b64('1') }, immutable: true });
  const sameData = updated(secrets(), { metadata: { name: 's' }, data: { a: b64('1') }, immutable: true }, old);
  assert.deepEqual(secrets().validateUpdate(sameData, old, ctx()), []);
  const changed = updated(secrets(), { metadata: { name: 's' }, data: { a: b64('1') }, stringData: { a: '2' } }, old);
  assert.deepEqual(messages(secrets().validateUpdate(changed, old, ctx())), [
    'immutable: Forbidden: field is immutable when `immutable` is set',
    'data: Forbidden: field is immutable when `immutable` is set',
  ]);
});

test('keys and size are checked on the decoded data', () => {
  const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
  const secret = created(secrets(), { metadata: { name: 's' }, data: { 'a/b': 'AA==', big } });
  assert.deepEqual(
    messages(secrets().validate(secret, ctx())).map((m) => m.slice(0, 40)),
    ['data[a/b]: Invalid value: "a/b": a valid', 'data: Too long: may not be more than 104'],
  );
});
