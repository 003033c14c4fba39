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
import type { Logger } from '../../src/server/logger.js';
import { startTestServer } from '../server/test-server.js';

const dir = mkdtempSync(join(tmpdir(), 'capstan-audit-filter-'));
const policyFile = join(dir, 'policy.yaml');
writeFileSync(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, enabled: () => false, info: () => {}, warn: () => {}, error: (m: string) => void errors.push(m), isHealthy: () => true, setVerbosity: () => {} };
}

async function serverWithFullDisk(mode: string, logger: Logger) {
  const d = defaultAuditOptions();
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
  return { t, served: () => served };
}

describe('audit filters when the log cannot be written', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('fails the request with upstream\'s 500 under blocking-strict, before the handler runs', async () => {
    const logger = recordingLogger();
    const { t, served } = await serverWithFullDisk('blocking-strict', logger);
    try {
      const res = await t.admin('/hello');
      assert.equal(res.status, 500);
      const status = JSON.parse(res.body) as { reason: string; message: string };
      assert.equal(status.reason, 'InternalError');
      assert.equal(status.message, 'Internal error occurred: failed to store audit event');
      assert.equal(served(), 0);
      assert.match(logger.errors.join('\n'), /Error in audit plugin 'log' affecting 1 audit events: write \/dev\/full: ENOSPC/);
    } finally {
      await t.close();
    }
  });

  it('serves the request under blocking, and reports each lost event', async () => {
    const logger = recordingLogger();
    const { t, served } = await serverWithFullDisk('blocking', logger);
    try {
      const res = await t.admin('/hello');
      assert.equal(res.status, 200);
      assert.equal(res.body, 'hi');
      assert.equal(served(), 1);
      const lost = logger.errors.filter((e) => e.startsWith("Error in audit plugin 'log'"));
      assert.equal(lost.length, 2, 'RequestReceived and ResponseComplete');
      assert.match(lost[1]!, /stage="ResponseComplete" .* response="200"/);
    } finally {
      await t.close();
    }
  });
});
