/**
 * Capstan as the benchmark runs it: the real binary (the bundle, dist/capstan/main.js) in its own
 * process on the embedded store, with the node options of its first line (as `npm start` runs it),
 * timed from spawn to the first passing /readyz, its resident memory read from /proc. Optionally
 * under `node --cpu-prof`, which writes a profile when the server exits. Started with
 * `--inspect-port=127.0.0.1:0`, so that the inspector can be switched on later (SIGUSR1) to force
 * a garbage collection before memory is read; until then, no inspector runs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keepAliveAgent, now, send } from './https-client.js';
import { cpuSeconds, residentBytes } from './proc-stats.js';
import { scriptNodeOptions } from './shebang.js';
import { targetFromKubeconfig, type Target } from './target.js';

const MAIN = fileURLToPath(new URL('../../capstan/main.js', import.meta.url));
const BUNDLE_SCRIPT = fileURLToPath(new URL('../../../scripts/bundle.mjs', import.meta.url));
const READY_POLL_MS = 5;
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;

export interface CapstanStartOptions {
  readonly dataDir: string;
  /** Write a CPU profile into this directory when the server exits. */
  readonly cpuProfileDir?: string;
  /** More options for node itself (V8 flags, say), before the server's script. */
  readonly nodeArgs?: readonly string[];
  /** Another build's main.js, for comparing two builds side by side (default: this one's bundle). */
  readonly main?: string;
}

export interface CapstanProcess {
  readonly target: Target;
  readonly pid: number;
  /** From spawning the process to the first 200 from /readyz, as a client sees it (ms). */
  readonly startupMs: number;
  /** What the server printed as its own "ready in N ms" (from process start), if it did. */
  readonly reportedReadyMs: number | undefined;
  /** Resident set size now (VmRSS), in bytes. */
  residentBytes(): number;
  /** CPU time the process has used so far, all threads, in seconds. */
  cpuSeconds(): number;
  /** Switches the inspector on (SIGUSR1) and resolves with its WebSocket URL. */
  inspectorUrl(): Promise<string>;
  /** SIGTERM, then waits for the exit (SIGKILL if it does not come). */
  stop(): Promise<void>;
}

/**
 * The benchmark's environment without NODE_EXTRA_CA_CERTS. Node reads and parses that file at
 * every process start, before any of the server's code runs: with Debian's bundle of ~140 CAs it
 * added 30-60 ms to `node -e 0` on the machine where this was found, which the startup figure
 * would then count as the server's. The server the benchmark runs makes no outgoing TLS
 * connection, so it needs no extra CAs.
 */
export function serverEnvironment(): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _unused, ...rest } = process.env;
  return rest;
}

/**
 * Bundles the server again when dist/src is newer than the bundle (after a bare `tsc`), so that
 * the benchmark never measures old code. Throws when bundling fails.
 */
export function ensureCurrentBundle(): void {
  const result = spawnSync(process.execPath, [BUNDLE_SCRIPT, '--if-stale'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${BUNDLE_SCRIPT} --if-stale failed (exit ${result.status})`);
}

/** Starts Capstan on `dataDir` and waits for /readyz. Throws with the server's output if it exits or never gets ready. */
export async function startCapstan(options: CapstanStartOptions): Promise<CapstanProcess> {
  const port = await freePort();
  const main = options.main ?? MAIN;
  // The options of the binary's first line, as when it is run (npm start, the capstan bin).
  const nodeArgs = [...scriptNodeOptions(main), ...(options.nodeArgs ?? []), '--inspect-port=127.0.0.1:0', ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [])];
  const began = now();
  const child = spawn(process.execPath, [...nodeArgs, main, '--data-dir', options.dataDir, '--secure-port', String(port), '--bind-address', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: serverEnvironment(),
  });
  let output = '';
  let announceInspector: (url: string) => void = () => undefined;
  const inspector = new Promise<string>((resolve) => (announceInspector = resolve));
  // Bounded: only the start of the output matters (errors, the ready line), and the inspector's URL.
  const collect = (d: Buffer): void => {
    const text = d.toString();
    if (output.length < 64 * 1024) output += text;
    const url = /Debugger listening on (ws:\/\/\S+)/.exec(text);
    if (url) announceInspector(url[1]!);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1))));
  const kubeconfig = join(options.dataDir, 'admin.kubeconfig');
  const startupMs = await waitReady(child, exited, kubeconfig, port, began, () => output);
  const target = { ...targetFromKubeconfig(kubeconfig, 'capstan'), host: '127.0.0.1', port };
  const reported = /ready in (\d+) ms/.exec(output);
  return {
    target,
    pid: child.pid!,
    startupMs,
    reportedReadyMs: reported ? Number(reported[1]) : undefined,
    residentBytes: () => residentBytes(child.pid!),
    cpuSeconds: () => cpuSeconds(child.pid!),
    inspectorUrl: () => {
      child.kill('SIGUSR1');
      return inspector;
    },
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitReady(child: ChildProcess, exited: Promise<number>, kubeconfig: string, port: number, began: number, output: () => string): Promise<number> {
  let target: Target | undefined;
  let agent: ReturnType<typeof keepAliveAgent> | undefined;
  try {
    while (now() - began < READY_TIMEOUT_MS) {
      const code = await Promise.race([exited, sleep(READY_POLL_MS)]);
      if (code !== undefined) throw new Error(`capstan exited with ${code} before it was ready:\n${output()}`);
      // The kubeconfig appears before the port opens on a first start; on later starts it is already there.
      if (!target) {
        if (!existsSync(kubeconfig)) continue;
        try {
          target = { ...targetFromKubeconfig(kubeconfig), host: '127.0.0.1', port };
        } catch {
          continue; // being written
        }
        agent = keepAliveAgent(target, 1);
      }
      try {
        const reply = await send(agent!, target, { method: 'GET', path: '/readyz' }, false);
        if (reply.status === 200) return now() - began;
      } catch {
        // Not listening yet.
      }
    }
    child.kill('SIGKILL');
    throw new Error(`capstan not ready within ${READY_TIMEOUT_MS / 1000} s:\n${output()}`);
  } finally {
    agent?.destroy();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function sleep(ms: number): Promise<undefined> {
  return new Promise((r) => setTimeout(() => r(undefined), ms));
}
