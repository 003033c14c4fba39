/**
 * `node dist/bench/e2e/profile-summary.js PROFILE.cpuprofile [top]`: the functions and files with
 * the most self time in a V8 CPU profile (as `node --cpu-prof` writes, e.g. from
 * `npm run bench e2e --cpu-prof-dir DIR`), and the project's functions with the most time under
 * them; idle time left out of the percentages. `--window FROM-TO` keeps the samples of one workload
 * (the benchmark prints each workload's window when it profiles).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly startTime: number;
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

function functionKey(frame: ProfileNode['callFrame']): string {
  return `${frame.functionName || '(anonymous)'}${frame.url ? ` ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : ''}`;
}

/**
 * Whether a frame runs code from the compiled modules (dist/src) or the bundle the server runs
 * from (dist/capstan). The bundle also holds the packages bundled into it (commander, and the
 * X.509 library with its helpers, which run only when certificates are issued), counted here too.
 */
function isOwnCode(url: string): boolean {
  return url.includes('/dist/src/') || url.includes('/dist/capstan/');
}

/**
 * Self time by function (name, file, line) and by file, and total (inclusive) time of the
 * project's own functions (see isOwnCode), which shows which phase of ours the time is spent under.
 * Each sample's time is the delta to the next sample, as Chrome DevTools counts it.
 */
function selfTimes(profile: CpuProfile, window: readonly [number, number]): { byFunction: SelfTimes; byFile: SelfTimes; ownTotal: SelfTimes; idleMs: number; totalMs: number } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const ownTotal = new Map<string, number>();
  let idleMs = 0;
  let totalMs = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < window[0] || at > window[1]) continue;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const frame = nodes.get(profile.samples[i]!)!.callFrame;
    totalMs += ms;
    if (frame.functionName === IDLE) {
      idleMs += ms;
      continue;
    }
    const file = frame.url ? shortUrl(frame.url) : '(native)';
    const name = functionKey(frame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    // Each of our functions on the stack once, however deep the recursion.
    const onStack = new Set<string>();
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parents.get(id)) {
      const f = nodes.get(id)!.callFrame;
      if (isOwnCode(f.url)) onStack.add(functionKey(f));
    }
    for (const key of onStack) ownTotal.set(key, (ownTotal.get(key) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>): SelfTimes => [...m].sort((a, b) => b[1] - a[1]);
  return { byFunction: sorted(byFunction), byFile: sorted(byFile), ownTotal: sorted(ownTotal), idleMs, totalMs };
}

function print(title: string, entries: SelfTimes, busyMs: number, top: number): void {
  console.log(`\n${title}`);
  for (const [name, ms] of entries.slice(0, top)) {
    console.log(`${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / busyMs).toFixed(1).padStart(5)}%  ${name}`);
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const windowAt = args.indexOf('--window');
  // The benchmark prints each workload's window: monotonic-clock microseconds, as V8 stamps samples.
  const window = windowAt >= 0 ? (args.splice(windowAt, 2)[1]!.split('-').map(Number) as [number, number]) : ([0, Infinity] as const);
  const [path, topArg] = args;
  if (!path) {
    console.error('usage: node dist/bench/e2e/profile-summary.js PROFILE.cpuprofile [top] [--window FROM-TO]');
    process.exitCode = 2;
    return;
  }
  const top = Number(topArg ?? 25);
  const times = selfTimes(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, window);
  const busyMs = times.totalMs - times.idleMs;
  console.log(`${path}: ${(times.totalMs / 1000).toFixed(1)} s profiled, ${(busyMs / 1000).toFixed(1)} s busy (percentages of busy time)`);
  print('self time by function', times.byFunction, busyMs, top);
  print('self time by file', times.byFile, busyMs, Math.min(top, 15));
  print('total time under our own functions (dist/src or dist/capstan, inclusive)', times.ownTotal, busyMs, top);
}

main();
