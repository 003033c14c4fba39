/**
 * The benchmark's reading of /proc (bench/e2e/proc-stats.ts): the main thread's wait for a CPU,
 * read from this very process, and how the server's CPU is worded with and without it; the
 * kernel's own threads, read from this machine, and how their share is worded.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import {
  coresOfOthers,
  describeMachine,
  describeServerCpu,
  kernelThreadsCpu,
  mainThreadWaitSeconds,
  type CpuOfOthers,
  type MachineCpu,
} from '../../bench/e2e/proc-stats.js';

const machine: MachineCpu = { idle: 0, stolen: 0, kernelThreads: new Map() };

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

  it('reads the kernel threads of this machine, by family, and no process of its own', (t) => {
    const families = kernelThreadsCpu();
    if (families.size === 0) {
      t.skip('no /proc, or no kernel thread visible in it');
      return;
    }
    // kthreadd, the parent of every kernel thread, is one itself; this Node process is not one.
    assert.ok(families.has('kthreadd'), `families: ${[...families.keys()].join(', ')}`);
    assert.ok(!families.has('node'), 'a user process was counted as a kernel thread');
    for (const [family, seconds] of families) {
      assert.ok(!family.includes('/'), `family ${family} keeps its suffix`);
      assert.ok(seconds >= 0, `${family}: ${seconds}`);
    }
  });

  it('counts the kernel threads between two readings, names the busiest, and words both', () => {
    const before: CpuOfOthers = { machine: { idle: 1, stolen: 0, kernelThreads: new Map([['kdamond.0', 3], ['kworker', 1]]) } };
    // ksoftirqd appears only in the second reading: all of its time counts.
    const after: CpuOfOthers = {
      machine: { idle: 1.5, stolen: 0, kernelThreads: new Map([['kdamond.0', 3.12], ['kworker', 1.02], ['ksoftirqd', 0.02]]) },
    };
    const cpu = coresOfOthers(before, after, 2000);
    assert.ok(Math.abs(cpu.kernelThreadCores - 0.08) < 1e-9, `${cpu.kernelThreadCores}`);
    assert.equal(cpu.busiestKernelThread, 'kdamond.0');
    assert.equal(describeMachine(cpu), "0.25 cores stayed idle, 0.00 went to other guests of the VM's host and 0.08 to the kernel's own threads (most to kdamond.0)");
  });

  it('words a quiet kernel without naming a thread', () => {
    const quiet: CpuOfOthers = { machine };
    const cpu = coresOfOthers(quiet, quiet, 1000);
    assert.equal(cpu.busiestKernelThread, undefined);
    assert.equal(describeMachine(cpu), "0.00 cores stayed idle, 0.00 went to other guests of the VM's host and 0.00 to the kernel's own threads");
  });
});
