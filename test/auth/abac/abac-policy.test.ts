/** Reading the ABAC policy file: upstream's line format, conversions and error messages. */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePolicyLine, readAbacPolicyFile } from '../../../src/auth/abac/abac-policy.js';

const dir = mkdtempSync(join(tmpdir(), 'capstan-abac-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fileWith = (text: string): string => {
  const path = join(dir, `policy-${files++}.jsonl`);
  writeFileSync(path, text);
  return path;
};

describe('readAbacPolicyFile', () => {
  it('reads upstream\'s example file', () => {
    const file = readAbacPolicyFile(fileWith('{"user":"admin"}\n{"user":"scheduler", "readonly": true, "resource": "pods"}\n{"user":"alice", "namespace": "projectCaribou"}\n'));
    assert.equal(file.policies.length, 3);
    assert.equal(file.unversionedLines, 3);
  });

  it('reads an empty file, a last line without newline, CRLF, blank and comment lines', () => {
    assert.deepEqual(readAbacPolicyFile(fileWith('')).policies, []);
    const file = readAbacPolicyFile(fileWith('\n  # note\r\n{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"a","resource":"pods"}}\r\n{"user":"b"}'));
    assert.equal(file.policies.length, 2);
    assert.equal(file.unversionedLines, 1);
  });

  it('names the file, the line number and the line in a syntax error', () => {
    const path = fileWith('# ok\n\n{"user": }\n');
    assert.throws(() => readAbacPolicyFile(path), { message: `error reading policy file ${path}, line 3: {"user": }: couldn't get version/kind; json parse error: invalid character '}' looking for beginning of value` });
  });

  it('words type errors as encoding/json', () => {
    const path = fileWith('{"user": 5}\n');
    assert.throws(() => readAbacPolicyFile(path), { message: `error reading policy file ${path}, line 1: {"user": 5}: json: cannot unmarshal number into Go struct field Policy.user of type string` });
    const spec = fileWith('{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"readonly":"yes"}}');
    assert.throws(() => readAbacPolicyFile(spec), /: json: cannot unmarshal string into Go struct field PolicySpec\.spec\.readonly of type bool$/);
    const list = fileWith('[1]');
    assert.throws(() => readAbacPolicyFile(list), /line 1: \[1\]: couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct \{ APIVersion string/);
  });

  it('refuses kinds it does not know', () => {
    const path = fileWith('{"apiVersion":"v1","kind":"Pod"}');
    assert.throws(() => readAbacPolicyFile(path), /line 1: .*: no kind "Pod" is registered for version "v1"/);
  });

  it('says as Go does that the file is missing', () => {
    assert.throws(() => readAbacPolicyFile(join(dir, 'none')), { message: `open ${join(dir, 'none')}: no such file or directory` });
  });

  it('stops at a line longer than bufio.Scanner holds', () => {
    const path = fileWith(`{"user":"${'a'.repeat(70_000)}"}\n`);
    assert.throws(() => readAbacPolicyFile(path), { message: `error reading policy file ${path}: bufio.Scanner: token too long` });
  });
});

describe('policy conversion', () => {
  const v0 = (line: string) => decodePolicyLine(line).spec;
  it('v0: no subject, namespace or resource means every authenticated user, everywhere, every path', () =>
    assert.deepEqual(v0('{}'), { user: '', group: 'system:authenticated', readonly: false, apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*' }));
  it('v0: a namespace or resource leaves non-resource paths out', () =>
    assert.deepEqual(v0('{"user":"bob","readonly":true,"namespace":"p"}'), { user: 'bob', group: '', readonly: true, apiGroup: '*', resource: '*', namespace: 'p', nonResourcePath: '' }));
  it('v0: "*" user is every authenticated user', () => assert.deepEqual([v0('{"user":"*","resource":"pods"}').user, v0('{"group":"*","resource":"pods"}').group], ['', 'system:authenticated']));
  it('v0 lines may be YAML, as upstream\'s decoder takes them', () => assert.equal(v0('user: carol').user, 'carol'));
  it('v1beta1 keeps empty fields empty', () => {
    const line = JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec: { group: 'g', resource: 'pods' } });
    assert.deepEqual(decodePolicyLine(line), { spec: { user: '', group: 'g', readonly: false, apiGroup: '', resource: 'pods', namespace: '', nonResourcePath: '' }, unversioned: false });
  });
});
