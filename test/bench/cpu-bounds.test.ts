/**
 * The rates a closed-loop workload's CPU per request allows (bench/e2e/workloads/throughput.ts):
 * what every core busy, or the server's main thread busy, would give at the measured costs.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpuBounds, type Throughput } from '../../bench/e2e/workloads/throughput.js';

const measured: Throughput = {
  perSecond: 7155, p50Ms: 33, p99Ms: 71, failed: 0, generatorCores: 0.4, serverCores: 1.08, serverMainThreadCores: 0.81, idleCores: 0.43, stolenCores: 0, kernelThreadCores: 0.02,
};

describe('cpuBounds', () => {
  it('scales the measured rate to every core busy, and to the main thread busy throughout', () => {
    // 2 × 7,155 / (1.08 + 0.40) = 9,669; 7,155 / 0.81 = 8,833.
    assert.equal(cpuBounds(measured, 2), 'at these costs per request, 2 cores allow at most 9,669 req/s, the server\'s main thread 8,833');
  });

  it('leaves out the main thread when its CPU was not read', () => {
    const { serverMainThreadCores: _, ...withoutMainThread } = measured;
    assert.equal(cpuBounds(withoutMainThread, 4), 'at these costs per request, 4 cores allow at most 19,338 req/s');
  });

  it('says nothing for a server whose CPU it could not read (an external one)', () => {
    const { serverCores: _, serverMainThreadCores: __, ...external } = measured;
    assert.equal(cpuBounds(external, 2), undefined);
  });
});
