/** Go regular expressions of --cors-allowed-origins, and upstream's check that they pin the host. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileGoRegexp, originPatternProblem } from '../../src/server/cors-origins.js';

describe('compileGoRegexp', () => {
  const cases: Array<[string, string, boolean]> = [
    ['//example\\.com(:|$)', 'https://example.com:8443', true],
    ['//example\\.com(:|$)', 'https://example.com.evil.net', false],
    ['(?i)^https://EXAMPLE\\.com$', 'https://example.com', true],
    ['\\Ahttps://(?P<host>[a-z.]+)\\z', 'https://example.com', true],
    ['\\Ahttps://(?P<host>[a-z.]+)\\z', 'http://example.com', false],
  ];
  for (const [pattern, origin, matches] of cases) {
    it(`${pattern} ${matches ? 'matches' : 'does not match'} ${origin}`, () => assert.equal(compileGoRegexp(pattern).test(origin), matches));
  }
});

describe('originPatternProblem', () => {
  it('takes an expression pinned at both ends of the host', () => {
    for (const ok of ['//example\\.com(:|$)', '^https://example\\.com$']) assert.equal(originPatternProblem(ok), undefined, ok);
  });
  it('refuses one pinned at one end only, or none', () => {
    for (const bad of ['example\\.com', '^example\\.com', 'example\\.com$', '.*']) {
      assert.equal(originPatternProblem(bad), 'regular expression does not pin to start/end of host', bad);
    }
  });
  // Upstream only looks for the markers: the ':' of a scheme counts as pinning the end.
  it('takes what upstream takes', () => assert.equal(originPatternProblem('^https://example\\.com'), undefined));
  it('refuses one that does not compile', () => assert.match(originPatternProblem('^//(example$') ?? '', /^error parsing regexp: /));
});
