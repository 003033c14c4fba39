/**
 * The in-process CPU profiler: it samples this thread for the time asked, refuses a second
 * recording while one runs (and takes one again afterwards), and ends early, with what it has,
 * when its request ends. Also how the `seconds` parameter is read.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CpuProfiler, ProfilerBusyError } from '../../src/debug/cpu-profiler.js';
import { secondsOf } from '../../src/debug/pprof-routes.js';

/** Keeps the thread busy in a function of a name the profile can be searched for. */
function spinUntil(deadline: number): void {
  while (Date.now() < deadline) JSON.stringify({ busy: Math.random() });
}

describe('CpuProfiler', () => {
  it('samples the thread for the time asked, one recording at a time', async () => {
    const profiler = new CpuProfiler(500);
    const recording = profiler.record(300, new AbortController().signal);
    await assert.rejects(profiler.record(100, new AbortController().signal), ProfilerBusyError);
    const spinner = setInterval(() => spinUntil(Date.now() + 20), 25);
    const { profile, startedAtMs } = await recording.finally(() => clearInterval(spinner));
    assert.ok(Math.abs(startedAtMs - Date.now()) < 5_000, `started at ${startedAtMs}`);
    assert.ok(profile.endTime - profile.startTime >= 250_000, `${profile.endTime - profile.startTime} µs`);
    assert.ok(profile.nodes.some((n) => n.callFrame.functionName === 'spinUntil'), 'the busy function is in the profile');
    // Free again once the first one is done.
    const again = await profiler.record(10, new AbortController().signal);
    assert.ok(again.profile.nodes.length > 0);
  });

  it('ends early with what it recorded when its signal aborts, and can record again', async () => {
    const profiler = new CpuProfiler(1000);
    const gone = new AbortController();
    const began = Date.now();
    const recording = profiler.record(60_000, gone.signal);
    setTimeout(() => gone.abort(new Error('server is stopping')), 100);
    const { profile } = await recording;
    assert.ok(Date.now() - began < 10_000, 'ended at the abort, not after 60 s');
    assert.ok(profile.endTime - profile.startTime >= 50_000, `${profile.endTime - profile.startTime} µs recorded`);
    assert.ok((await profiler.record(10, new AbortController().signal)).profile.nodes.length > 0);
  });
});

describe('secondsOf', () => {
  const table: Array<[string | null, number]> = [
    [null, 30],
    ['5', 5],
    ['+7', 7],
    ['0', 30],
    ['-3', 30],
    ['1.5', 30],
    ['ten', 30],
    ['', 30],
    ['99999999999', 2_147_483],
    // Past 2^53 but within 64 bits: still a whole number to Go, so capped like any long profile.
    ['9007199254740993', 2_147_483],
    // Past 64 bits: ParseInt fails, and Go takes its default.
    ['9223372036854775808', 30],
  ];
  for (const [value, want] of table) it(`reads ${JSON.stringify(value)} as ${want}`, () => assert.equal(secondsOf(value), want));
});
