/**
 * `node dist/bench/e2e/profile-summary.js PROFILE.cpuprofile [top]`: the functions and files with
 * the most self time in a V8 CPU profile (as `node --cpu-prof` writes, e.g. from
 * `npm run bench e2e --cpu-prof-dir DIR`), idle time left out of the percentages.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Self time (ms) per key, biggest first. */
type SelfTimes = ReadonlyArray<readonly [string, number]>;

/** Entries V8 reports that are not JavaScript functions running. */
const IDLE = '(idle)';

function shortUrl(url: string): string {
  const at = Math.max(url.lastIndexOf('/dist/'), url.lastIndexOf('/node_modules/'));
  if (at >= 0) return url.slice(at + 1);
  return url.replace(/^file:\/\//, '');
}

/**
 * Self time by function (name, file, line) and by file. Each sample's time is the delta to the
 * next sample, as Chrome DevTools counts it.
 */
function selfTimes(profile: CpuProfile): { byFunction: SelfTimes; byFile: SelfTimes; idleMs: number; totalMs: number } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let idleMs = 0;
  let totalMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const frame = nodes.get(profile.samples[i]!)!.callFrame;
    totalMs += ms;
    if (frame.functionName === IDLE) {
      idleMs += ms;
      continue;
    }
    const file = frame.url ? shortUrl(frame.url) : '(native)';
    const name = `${frame.functionName || '(anonymous)'}${frame.url ? ` ${file}:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>): SelfTimes => [...m].sort((a, b) => b[1] - a[1]);
  return { byFunction: sorted(byFunction), byFile: sorted(byFile), idleMs, totalMs };
}

function print(title: string, entries: SelfTimes, busyMs: number, top: number): void {
  console.log(`\n${title}`);
  for (const [name, ms] of entries.slice(0, top)) {
    console.log(`${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / busyMs).toFixed(1).padStart(5)}%  ${name}`);
  }
}

function main(): void {
  const [path, topArg] = process.argv.slice(2);
  if (!path) {
    console.error('usage: node dist/bench/e2e/profile-summary.js PROFILE.cpuprofile [top]');
    process.exitCode = 2;
    return;
  }
  const top = Number(topArg ?? 25);
  const times = selfTimes(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile);
  const busyMs = times.totalMs - times.idleMs;
  console.log(`${path}: ${(times.totalMs / 1000).toFixed(1)} s profiled, ${(busyMs / 1000).toFixed(1)} s busy (percentages of busy time)`);
  print('self time by function', times.byFunction, busyMs, top);
  print('self time by file', times.byFile, busyMs, Math.min(top, 15));
}

main();
