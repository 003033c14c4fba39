/** The launcher's guess, from the words of a command line, whether it serves the embedded store. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mayServeEmbeddedStore } from '../../src/cli/embedded-store-guess.js';

describe('mayServeEmbeddedStore', () => {
  it('is true for a plain start and for flags that keep the embedded store', () => {
    assert.equal(mayServeEmbeddedStore([]), true);
    assert.equal(mayServeEmbeddedStore(['--data-dir', '/tmp/x', '--secure-port', '0']), true);
    assert.equal(mayServeEmbeddedStore(['--store-prefix=/r', '--versioned']), true, 'only whole flag names count');
  });

  it('is false for help, version and an etcd store in either spelling', () => {
    for (const args of [['-h'], ['--help'], ['--version'], ['--version=raw'], ['--store-servers', 'https://e:2379'], ['--etcd-servers=https://e:2379']]) {
      assert.equal(mayServeEmbeddedStore(['--data-dir', 'd', ...args]), false, args.join(' '));
    }
  });
});
