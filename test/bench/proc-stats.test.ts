/**
 * The benchmark's reading of /proc (bench/e2e/proc-stats.ts): the main thread's wait for a CPU,
 * read from this very process, and how the server's CPU is worded with and without it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { coresOfOthers, describeServerCpu, mainThreadWaitSeconds, type CpuOfOthers } from '../../bench/e2e/proc-stats.js';

const machine = { idle: 0, stolen: 0 };

describe('proc-stats', () => {
  it('reads how long a main thread waited for a CPU, where the kernel keeps scheduler statistics', (t) => {
    if (!existsSync(`/proc/${process.pid}/task/${process.pid}/schedstat`)) {
      assert.equal(mainThreadWaitSeconds(process.pid), undefined);
      t.skip('this kernel keeps no scheduler statistics');
      return;
    }
    const waited = mainThreadWaitSeconds(process.pid);
    assert.ok(waited !== undefined && waited >= 0, `waited ${waited}`);
  });

  it('says undefined for a process that is not there', () => {
    assert.equal(mainThreadWaitSeconds(2 ** 30), undefined);
  });

  it('turns the wait into a share of the elapsed time, and words it after the main thread', () => {
    const before: CpuOfOthers = { server: { process: 10, mainThread: 8, mainThreadWaiting: 1 }, machine };
    const after: CpuOfOthers = { server: { process: 12, mainThread: 9.6, mainThreadWaiting: 1.2 }, machine };
    const cpu = coresOfOthers(before, after, 2000);
    assert.ok(Math.abs(cpu.serverMainThreadWaitingCores! - 0.1) < 1e-9, `${cpu.serverMainThreadWaitingCores}`);
    assert.equal(
      describeServerCpu(cpu, (cores) => `${Math.round(cores * 100)} µs CPU per request`),
      'the server used 1.00 cores, 100 µs CPU per request (its main thread 0.80 cores, 80 µs CPU per request; runnable but waiting for a CPU 0.10 of the time)',
    );
  });

  it('leaves the wait out when either reading lacks it', () => {
    const before: CpuOfOthers = { server: { process: 10, mainThread: 8, mainThreadWaiting: undefined }, machine };
    const after: CpuOfOthers = { server: { process: 12, mainThread: 9.6, mainThreadWaiting: 1.2 }, machine };
    const cpu = coresOfOthers(before, after, 2000);
    assert.equal(cpu.serverMainThreadWaitingCores, undefined);
    assert.equal(describeServerCpu(cpu), 'the server used 1.00 cores (its main thread 0.80 cores)');
  });
});
