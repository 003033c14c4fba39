/**
 * What Linux's /proc says about a process (resident memory, CPU time used) and about the machine's
 * CPUs, and how the benchmark's notes word the CPU a job saw used.
 */
import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * Time a process's main thread has spent runnable but waiting for a CPU, in seconds: the second
 * field of its schedstat (Linux, nanoseconds). A server whose main thread waits while its event loop
 * has work is held back by the machine (other threads and processes on too few CPUs), not by its
 * own code. Undefined where the kernel keeps no scheduler statistics.
 */
export function mainThreadWaitSeconds(pid: number): number | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8');
  } catch {
    return undefined;
  }
  const waited = Number(text.split(' ')[1]);
  return Number.isFinite(waited) ? waited / 1e9 : undefined;
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
  /** Time the kernel's own threads ran, by family (see kernelThreadsCpu). */
  readonly kernelThreads: ReadonlyMap<string, number>;
}

/** Reads the first line of /proc/stat (all CPUs together), and the kernel's threads. */
export function machineCpu(): MachineCpu {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  return { idle: (ticks[3] ?? 0) / CLOCK_TICKS_PER_SECOND, stolen: (ticks[7] ?? 0) / CLOCK_TICKS_PER_SECOND, kernelThreads: kernelThreadsCpu() };
}

/** The flag in /proc/<pid>/stat's flags field (the 9th) that marks a kernel thread. */
const PF_KTHREAD = 0x00200000;

/** One of the kernel's own threads, as /proc/<pid>/stat shows it. */
export interface KernelThread {
  readonly pid: number;
  readonly name: string;
  /** utime + stime so far, in seconds. */
  readonly cpuSeconds: number;
}

/** The kernel's own threads now (none where /proc cannot be read). */
export function kernelThreads(): KernelThread[] {
  const threads: KernelThread[] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return threads;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    const nameEnd = stat.lastIndexOf(')');
    const fields = stat.slice(nameEnd + 2).split(' ');
    if ((Number(fields[6]) & PF_KTHREAD) === 0) continue;
    const name = stat.slice(stat.indexOf('(') + 1, nameEnd);
    threads.push({ pid: Number(pid), name, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND });
  }
  return threads;
}

/**
 * CPU time of the kernel's own threads so far, in seconds, summed by family: the name up to its
 * first '/' (all the kworker/... together). They run on the benchmark's CPUs too: on this project's
 * VMs kdamond.0 (DAMON's proactive reclaim) took one of the 2 CPUs for 30-60 ms at a time, several
 * times a second under load, and server and load generator shared the other meanwhile. Some of it
 * is the benchmark's own doing (ksoftirqd handles network packets, kworkers write files back).
 */
export function kernelThreadsCpu(): Map<string, number> {
  const byFamily = new Map<string, number>();
  for (const thread of kernelThreads()) {
    const family = thread.name.split('/', 1)[0]!;
    byFamily.set(family, (byFamily.get(family) ?? 0) + thread.cpuSeconds);
  }
  return byFamily;
}

/** CPU time used so far by a server process (when it runs here) and by the machine as a whole. */
export interface CpuOfOthers {
  readonly server?: { readonly process: number; readonly mainThread: number; readonly mainThreadWaiting: number | undefined };
  readonly machine: MachineCpu;
}

export function readCpuOfOthers(serverPid: number | undefined): CpuOfOthers {
  const server =
    serverPid === undefined
      ? undefined
      : { process: cpuSeconds(serverPid), mainThread: mainThreadCpuSeconds(serverPid), mainThreadWaiting: mainThreadWaitSeconds(serverPid) };
  return { ...(server ? { server } : {}), machine: machineCpu() };
}

/**
 * The CPU of others while a job measured, in cores (1 = one CPU busy throughout): the server's
 * process (all threads, and its main thread alone) when it runs on this machine, and the machine's
 * CPUs that stayed idle or went to other guests of the VM's host.
 */
export interface CpuWhileMeasured {
  readonly serverCores?: number;
  readonly serverMainThreadCores?: number;
  /** The server's main thread runnable but waiting for a CPU (where the kernel says). */
  readonly serverMainThreadWaitingCores?: number;
  readonly idleCores: number;
  readonly stolenCores: number;
  /** The kernel's own threads, and the family of them that ran most (when any ran). */
  readonly kernelThreadCores: number;
  readonly busiestKernelThread?: string;
}

/** What was used between two readings `elapsedMs` apart. */
export function coresOfOthers(before: CpuOfOthers, after: CpuOfOthers, elapsedMs: number): CpuWhileMeasured {
  const cores = (seconds: number): number => (seconds * 1000) / elapsedMs;
  return {
    ...(before.server && after.server
      ? { serverCores: cores(after.server.process - before.server.process), serverMainThreadCores: cores(after.server.mainThread - before.server.mainThread) }
      : {}),
    ...(before.server?.mainThreadWaiting !== undefined && after.server?.mainThreadWaiting !== undefined
      ? { serverMainThreadWaitingCores: cores(after.server.mainThreadWaiting - before.server.mainThreadWaiting) }
      : {}),
    idleCores: cores(after.machine.idle - before.machine.idle),
    stolenCores: cores(after.machine.stolen - before.machine.stolen),
    ...kernelThreadsBetween(before.machine.kernelThreads, after.machine.kernelThreads, cores),
  };
}

function kernelThreadsBetween(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  cores: (seconds: number) => number,
): Pick<CpuWhileMeasured, 'kernelThreadCores' | 'busiestKernelThread'> {
  let total = 0;
  let busiest: { family: string; seconds: number } | undefined;
  for (const [family, seconds] of after) {
    // A thread born between the readings counts from zero; one that ended is not counted.
    const used = seconds - (before.get(family) ?? 0);
    if (used <= 0) continue;
    total += used;
    if (busiest === undefined || used > busiest.seconds) busiest = { family, seconds: used };
  }
  return { kernelThreadCores: cores(total), ...(busiest ? { busiestKernelThread: busiest.family } : {}) };
}

/**
 * "the server used 0.81 cores (its main thread 0.74 cores; runnable but waiting for a CPU 0.08 of
 * the time); 0.26 cores stayed idle and 0.00 went to other guests of the VM's host"
 */
export function describeCpuWhileMeasured(cpu: CpuWhileMeasured): string {
  const server = describeServerCpu(cpu);
  return server === undefined ? describeMachine(cpu) : `${server}; ${describeMachine(cpu)}`;
}

/**
 * "the server used 0.81 cores (its main thread 0.74 cores)"; with `perRequest`, each figure is
 * followed by what it comes to per request: "1.06 cores, 131 µs CPU per request". Undefined when
 * the server's CPU was not read (an external server).
 */
export function describeServerCpu(cpu: CpuWhileMeasured, perRequest?: (cores: number) => string): string | undefined {
  if (cpu.serverCores === undefined) return undefined;
  const amount = (cores: number): string => `${cores.toFixed(2)} cores${perRequest ? `, ${perRequest(cores)}` : ''}`;
  // One thread's cores are the share of the time it spent so.
  const waiting = cpu.serverMainThreadWaitingCores === undefined ? '' : `; runnable but waiting for a CPU ${cpu.serverMainThreadWaitingCores.toFixed(2)} of the time`;
  const mainThread = cpu.serverMainThreadCores === undefined ? '' : ` (its main thread ${amount(cpu.serverMainThreadCores)}${waiting})`;
  return `the server used ${amount(cpu.serverCores)}${mainThread}`;
}

/**
 * "0.26 cores stayed idle, 0.00 went to other guests of the VM's host and 0.05 to the kernel's own
 * threads (most to kdamond.0)"
 */
export function describeMachine(cpu: CpuWhileMeasured): string {
  const busiest = cpu.busiestKernelThread === undefined ? '' : ` (most to ${cpu.busiestKernelThread})`;
  return (
    `${cpu.idleCores.toFixed(2)} cores stayed idle, ${cpu.stolenCores.toFixed(2)} went to other guests of the VM's host ` +
    `and ${cpu.kernelThreadCores.toFixed(2)} to the kernel's own threads${busiest}`
  );
}

/** The CpuWhileMeasured figures alone, of a result that carries them among others. */
export function cpuWhileMeasured(from: CpuWhileMeasured): CpuWhileMeasured {
  const { serverCores, serverMainThreadCores, serverMainThreadWaitingCores, idleCores, stolenCores, kernelThreadCores, busiestKernelThread } = from;
  return {
    ...(serverCores !== undefined ? { serverCores } : {}),
    ...(serverMainThreadCores !== undefined ? { serverMainThreadCores } : {}),
    ...(serverMainThreadWaitingCores !== undefined ? { serverMainThreadWaitingCores } : {}),
    idleCores,
    stolenCores,
    kernelThreadCores,
    ...(busiestKernelThread !== undefined ? { busiestKernelThread } : {}),
  };
}
