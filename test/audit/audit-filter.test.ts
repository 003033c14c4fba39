/**
 * The audit filters on an in-process server whose log cannot be written (/dev/full refuses every
 * write with ENOSPC): under blocking-strict the request fails with upstream's 500 before its
 * handler runs; under blocking it is served, and the lost event is reported in the server's log.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultAuditOptions } from '../../src/cli/audit-options.js';
import { RecordingLogger } from '../recording-logger.js';
import type { TestResponse } from '../server/test-client.js';
import { startTestServer } from '../server/test-server.js';

const dir = mkdtempSync(join(tmpdir(), 'capstan-audit-filter-'));
const policyFile = join(dir, 'policy.yaml');
writeFileSync(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');

/**
 * GET /hello from a server whose audit log is /dev/full, in `mode`; `check` sees the answer, how
 * many times the handler ran, and the server's error lines.
 */
async function getWithFullDisk(mode: string, check: (res: TestResponse, served: number, errors: readonly string[]) => void): Promise<void> {
  const d = defaultAuditOptions();
  const logger = new RecordingLogger();
  let served = 0;
  const t = await startTestServer({
    options: (o) => ({ ...o, audit: { ...d, policyFile, log: { ...d.log, path: '/dev/full', batch: { ...d.log.batch, mode } } } }),
    deps: { logger },
    configure: (server) => server.routes.add('/hello', async (ctx) => {
      served++;
      ctx.res.statusCode = 200;
      ctx.res.end('hi');
    }),
  });
  try {
    check(await t.admin('/hello'), served, logger.errors);
  } finally {
    await t.close();
  }
}

describe('audit filters when the log cannot be written', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('fails the request with upstream\'s 500 under blocking-strict, before the handler runs', () =>
    getWithFullDisk('blocking-strict', (res, served, errors) => {
      assert.equal(res.status, 500);
      const status = JSON.parse(res.body) as { reason: string; message: string };
      assert.equal(status.reason, 'InternalError');
      assert.equal(status.message, 'Internal error occurred: failed to store audit event');
      assert.equal(served, 0);
      assert.match(errors.join('\n'), /Error in audit plugin 'log' affecting 1 audit events: write \/dev\/full: ENOSPC/);
    }));

  it('serves the request under blocking, and reports each lost event', () =>
    getWithFullDisk('blocking', (res, served, errors) => {
      assert.equal(res.status, 200);
      assert.equal(res.body, 'hi');
      assert.equal(served, 1);
      const lost = errors.filter((e) => e.startsWith("Error in audit plugin 'log'"));
      assert.equal(lost.length, 2, 'RequestReceived and ResponseComplete');
      assert.match(lost[1]!, /stage="ResponseComplete" .* response="200"/);
    }));
});
