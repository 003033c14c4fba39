import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseLabelSelector } from '../../src/selection/label-selector.js';
import { parseFieldSelector } from '../../src/selection/field-selector.js';
import { ApiError } from '../../src/api/errors.js';

describe('label selectors', () => {
  const labels = { app: 'web', tier: 'db', n: '5' };
  const cases: [string, boolean][] = [
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app=api', false],
    ['app=web,tier=db', true],
    ['app in (api, web)', true],
    ['app notin (web)', false],
    ['tier', true],
    ['!tier', false],
    ['missing!=x', true],
    ['!missing', true],
    ['n>3', true],
    ['n<3', false],
  ];
  for (const [selector, expected] of cases) {
    it(`"${selector}" ${expected ? 'matches' : 'does not match'}`, () => {
      assert.equal(parseLabelSelector(selector).matches(labels), expected);
    });
  }
  for (const bad of ['app in web', 'app=(x', 'Bad Key=x', 'app=-x', 'n>a']) {
    it(`refuses "${bad}" with 400`, () => {
      assert.throws(() => parseLabelSelector(bad), (err: unknown) => err instanceof ApiError && err.code === 400);
    });
  }
});

describe('field selectors', () => {
  const supported = new Set(['metadata.name', 'status.phase']);
  it('matches =, == and !=, and pins exact values', () => {
    const sel = parseFieldSelector('metadata.name=a,status.phase!=Failed', supported);
    const fields = (values: Record<string, string>) => (f: string) => values[f];
    assert.equal(sel.matches(fields({ 'metadata.name': 'a', 'status.phase': 'Running' })), true);
    assert.equal(sel.matches(fields({ 'metadata.name': 'a', 'status.phase': 'Failed' })), false);
    assert.equal(sel.exactValue('metadata.name'), 'a');
    assert.equal(sel.exactValue('status.phase'), undefined);
  });
  it('allows escaped separators in values', () => {
    const sel = parseFieldSelector('metadata.name=a\\,b', supported);
    assert.equal(sel.exactValue('metadata.name'), 'a,b');
  });
  it('refuses unsupported fields and malformed terms with 400', () => {
    assert.throws(() => parseFieldSelector('spec.x=1', supported), /field label not supported: spec.x/);
    assert.throws(() => parseFieldSelector('metadata.name', supported), /invalid selector/);
  });
});
