/** What Linux's /proc says about a process (resident memory, CPU time used) and about the machine's CPUs. */
import { readFileSync } from 'node:fs';

/** VmRSS of a process, in bytes (Linux). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!match) throw new Error(`/proc/${pid}/status has no VmRSS`);
  return Number(match[1]) * 1024;
}

/** Linux reports CPU times in clock ticks; 100 per second on every common configuration. */
const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of a process (all threads), in seconds (Linux). */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * utime + stime of a process's main thread (the thread whose id is the pid), in seconds (Linux).
 * A Node server's JavaScript runs there; when it is near 1 core, the server is at its limit
 * whatever the machine has left.
 */
export function mainThreadCpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuSeconds(path: string): number {
  const stat = readFileSync(path, 'utf8');
  // Fields after the command name (which may hold spaces) start at state, field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** The machine's CPU time so far, summed over its CPUs, in seconds. */
export interface MachineCpu {
  /** Time no process wanted. */
  readonly idle: number;
  /** Time the hypervisor gave to other guests while this one had work (a shared VM). */
  readonly stolen: number;
}

/** Reads the first line of /proc/stat (all CPUs together). */
export function machineCpu(): MachineCpu {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  return { idle: (ticks[3] ?? 0) / CLOCK_TICKS_PER_SECOND, stolen: (ticks[7] ?? 0) / CLOCK_TICKS_PER_SECOND };
}

/** CPU time used so far by a server process (when it runs here) and by the machine as a whole. */
export interface CpuOfOthers {
  readonly server?: { readonly process: number; readonly mainThread: number };
  readonly machine: MachineCpu;
}

export function readCpuOfOthers(serverPid: number | undefined): CpuOfOthers {
  const server = serverPid === undefined ? undefined : { process: cpuSeconds(serverPid), mainThread: mainThreadCpuSeconds(serverPid) };
  return { ...(server ? { server } : {}), machine: machineCpu() };
}

/** What was used between two readings `elapsedMs` apart, in cores (1 = one CPU busy throughout). */
export function coresOfOthers(
  before: CpuOfOthers,
  after: CpuOfOthers,
  elapsedMs: number,
): { serverCores?: number; serverMainThreadCores?: number; idleCores: number; stolenCores: number } {
  const cores = (seconds: number): number => (seconds * 1000) / elapsedMs;
  return {
    ...(before.server && after.server
      ? { serverCores: cores(after.server.process - before.server.process), serverMainThreadCores: cores(after.server.mainThread - before.server.mainThread) }
      : {}),
    idleCores: cores(after.machine.idle - before.machine.idle),
    stolenCores: cores(after.machine.stolen - before.machine.stolen),
  };
}
