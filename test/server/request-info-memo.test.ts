/** The memo of collection URLs' RequestInfo: what it keeps, and that a kept entry is what a parse gives. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RequestInfoMemo } from '../../src/server/request-info-memo.js';
import { RequestInfoResolver } from '../../src/server/request-info.js';
import type { RequestInfo } from '../../src/server/request-context.js';

const resolver = new RequestInfoResolver();

function parse(method: string, url: string): RequestInfo {
  const u = new URL(url, 'https://x');
  return resolver.resolve(method, decodeURIComponent(u.pathname), u.searchParams);
}

/** What the request filter does: the memo's entry, else a parse that the memo may keep. */
function infoFor(memo: RequestInfoMemo, method: string, url: string): RequestInfo {
  const known = memo.get(method, url);
  if (known !== undefined) return known;
  const info = parse(method, url);
  memo.remember(method, url, info);
  return info;
}

describe('RequestInfoMemo', () => {
  it('keeps collection URLs per method and full URL, and answers what a parse answers', () => {
    const memo = new RequestInfoMemo();
    const requests: [string, string][] = [
      ['POST', '/api/v1/namespaces/default/configmaps'],
      ['GET', '/api/v1/namespaces/default/configmaps'],
      ['GET', '/api/v1/namespaces/default/configmaps?watch=true'],
      ['GET', '/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Done'],
      ['DELETE', '/api/v1/namespaces/default/configmaps'],
      ['GET', '/apis/apps/v1/deployments'],
      ['GET', '/healthz'],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [method, url] of requests) assert.deepEqual(infoFor(memo, method, url), parse(method, url), `${method} ${url}, round ${round}`);
    }
    assert.equal(infoFor(memo, 'POST', '/api/v1/namespaces/default/configmaps').verb, 'create');
    assert.equal(infoFor(memo, 'GET', '/api/v1/namespaces/default/configmaps').verb, 'list');
    assert.equal(infoFor(memo, 'GET', '/api/v1/namespaces/default/configmaps?watch=true').verb, 'watch');
    // The field selector names one object, so that URL is not kept.
    assert.equal(memo.size, requests.length - 1);
  });

  it('does not keep URLs that name an object', () => {
    const memo = new RequestInfoMemo();
    for (let i = 0; i < 10; i++) infoFor(memo, 'GET', `/api/v1/namespaces/default/configmaps/cm-${i}`);
    infoFor(memo, 'GET', '/api/v1/namespaces/default/pods/p/log');
    assert.equal(memo.size, 0);
  });

  it('stays bounded', () => {
    const memo = new RequestInfoMemo();
    for (let i = 0; i < 5000; i++) infoFor(memo, 'GET', `/api/v1/namespaces/ns-${i}/configmaps`);
    assert.ok(memo.size <= 1024, `size ${memo.size}`);
    assert.equal(infoFor(memo, 'GET', '/api/v1/namespaces/ns-4999/configmaps').namespace, 'ns-4999');
  });
});
