import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getReadRevision, listReadOptions, watchReadOptions } from '../../src/endpoints/read-options.js';
import { decodeContinue, encodeContinue } from '../../src/endpoints/continue-token.js';
import { ApiError } from '../../src/api/errors.js';

const q = (s: string) => new URLSearchParams(s);
const token = encodeContinue({ revision: 7, start: 'b\u0000' });

describe('the get table', () => {
  for (const [query, expected] of [
    ['', { kind: 'consistent' }],
    ['resourceVersion=0', { kind: 'any' }],
    ['resourceVersion=5', { kind: 'not-older-than', revision: 5 }],
  ] as const) {
    it(query || 'unset', () => assert.deepEqual(getReadRevision(q(query)), expected));
  }
  it('refuses a non-numeric resourceVersion', () => assert.throws(() => getReadRevision(q('resourceVersion=x')), /invalid resource version/));
});

describe('the list table', () => {
  const cases: [string, unknown][] = [
    ['', { kind: 'consistent' }],
    ['resourceVersion=0', { kind: 'any' }],
    ['resourceVersion=5', { kind: 'not-older-than', revision: 5 }],
    ['limit=2', { kind: 'consistent' }],
    ['limit=2&resourceVersion=0', { kind: 'any' }],
    ['limit=2&resourceVersion=5', { kind: 'exact', revision: 5 }],
    [`limit=2&continue=${token}`, { kind: 'exact', revision: 7 }],
    [`limit=2&resourceVersion=0&continue=${token}`, { kind: 'exact', revision: 7 }],
    ['resourceVersion=5&resourceVersionMatch=Exact', { kind: 'exact', revision: 5 }],
    ['resourceVersion=5&resourceVersionMatch=Exact&limit=2', { kind: 'exact', revision: 5 }],
    ['resourceVersion=0&resourceVersionMatch=NotOlderThan', { kind: 'any' }],
    ['resourceVersion=5&resourceVersionMatch=NotOlderThan&limit=2', { kind: 'not-older-than', revision: 5 }],
  ];
  for (const [query, expected] of cases) {
    it(query.replace(token, 'TOKEN') || 'unset', () => assert.deepEqual(listReadOptions(q(query)).at, expected));
  }
  const invalid: [string, number][] = [
    ['resourceVersionMatch=Exact', 422],
    ['resourceVersion=0&resourceVersionMatch=Exact', 422],
    ['resourceVersionMatch=NotOlderThan', 422],
    ['resourceVersion=5&resourceVersionMatch=Sometime', 422],
    [`limit=2&resourceVersion=5&continue=${token}`, 400],
    ['limit=2&continue=garbage', 400],
    ['sendInitialEvents=true', 422],
  ];
  for (const [query, code] of invalid) {
    it(`refuses ${query.replace(token, 'TOKEN')} with ${code}`, () => {
      assert.throws(() => listReadOptions(q(query)), (err: unknown) => err instanceof ApiError && err.code === code);
    });
  }
  // Upstream converts every ListOptions parameter before it looks at the tables: strconv's text, 400.
  const unconvertible: [string, string][] = [
    ['limit=abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['limit=1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
    ['limit=', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['limit=9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ['timeoutSeconds=soon&limit=abc', 'strconv.ParseInt: parsing "soon": invalid syntax'],
  ];
  for (const [query, message] of unconvertible) {
    it(`refuses ${query} with 400 and strconv's words`, () => {
      assert.throws(() => listReadOptions(q(query)), (err: unknown) => err instanceof ApiError && err.code === 400 && err.message === message);
    });
  }
  it('takes a limit of 0 or below as none', () => {
    for (const limit of ['0', '-5', '%2B0']) assert.equal(listReadOptions(q(`limit=${limit}`)).limit, undefined);
    assert.equal(listReadOptions(q('limit=%2B7')).limit, 7);
  });
  it('keeps the continue position', () => {
    assert.deepEqual(listReadOptions(q(`limit=2&continue=${token}`)).continueFrom, { revision: 7, start: 'b\u0000' });
  });
});

describe('the watch table', () => {
  it('unset: initial state, consistent', () => assert.deepEqual(watchReadOptions(q('')).start, { kind: 'initial-state', at: { kind: 'consistent' } }));
  it('0: initial state, any', () => assert.deepEqual(watchReadOptions(q('resourceVersion=0')).start, { kind: 'initial-state', at: { kind: 'any' } }));
  it('other: after the version', () => assert.deepEqual(watchReadOptions(q('resourceVersion=9')).start, { kind: 'after', revision: 9 }));
  it('sendInitialEvents with NotOlderThan asks for the end bookmark when bookmarks are on', () => {
    const o = watchReadOptions(q('sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true'));
    assert.deepEqual(o.start, { kind: 'initial-state', at: { kind: 'consistent' } });
    assert.equal(o.initialEventsEndBookmark, true);
  });
  it('sendInitialEvents without NotOlderThan is Invalid', () => {
    assert.throws(() => watchReadOptions(q('sendInitialEvents=true')), (err: unknown) => err instanceof ApiError && err.code === 422);
  });
});

describe('continue tokens', () => {
  it('round-trip in upstream\'s format', () => {
    assert.deepEqual(JSON.parse(Buffer.from(token, 'base64url').toString()), { v: 'meta.k8s.io/v1', rv: 7, start: 'b\u0000' });
    assert.deepEqual(decodeContinue(token), { revision: 7, start: 'b\u0000' });
  });
  it('takes revision -1, the latest, as upstream hands out for an expired list', () => {
    assert.deepEqual(decodeContinue(Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: -1, start: 'a' })).toString('base64url')), { revision: -1, start: 'a' });
  });
  for (const [name, value] of [
    ['not base64 JSON', 'zzz'],
    ['another version', Buffer.from(JSON.stringify({ v: 'x', rv: 1, start: 'a' })).toString('base64url')],
    ['an absolute key', Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: '/registry/secrets/x' })).toString('base64url')],
    ['a climbing key', Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: '../x' })).toString('base64url')],
    ['a bad revision', Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: -2, start: 'a' })).toString('base64url')],
    ['revision 0', Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' })).toString('base64url')],
  ]) {
    it(`refuses ${name}`, () => assert.throws(() => decodeContinue(value), /continue key is not valid/));
  }
  it('reads timeoutSeconds as an int64 and refuses anything else with 400', () => {
    assert.equal(watchReadOptions(q('')).timeoutSeconds, undefined);
    assert.equal(watchReadOptions(q('timeoutSeconds=-1')).timeoutSeconds, -1);
    assert.equal(watchReadOptions(q('timeoutSeconds=3000000')).timeoutSeconds, 3000000);
    assert.throws(() => watchReadOptions(q('timeoutSeconds=1.5')),
      (err: unknown) => err instanceof ApiError && err.code === 400 && err.message === 'strconv.ParseInt: parsing "1.5": invalid syntax');
  });
  it('refuses a limit that does not parse, though a watch takes none', () => {
    assert.throws(() => watchReadOptions(q('limit=all')),
      (err: unknown) => err instanceof ApiError && err.code === 400 && err.message === 'strconv.ParseInt: parsing "all": invalid syntax');
    assert.equal(watchReadOptions(q('limit=5')).timeoutSeconds, undefined);
  });
  it('reads bools as upstream converts them: only "0" and "false" (any case) are false', () => {
    for (const value of ['', 'true', '1', 'yes', 'f']) assert.equal(watchReadOptions(q(`allowWatchBookmarks=${value}`)).bookmarks, true, value);
    for (const value of ['0', 'false', 'FALSE']) assert.equal(watchReadOptions(q(`allowWatchBookmarks=${value}`)).bookmarks, false, value);
    const absentMatch = watchReadOptions(q('sendInitialEvents=FALSE&resourceVersionMatch=NotOlderThan'));
    assert.deepEqual(absentMatch.start, { kind: 'after', revision: 0 });
  });
});
