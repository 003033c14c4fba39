/**
 * The benchmark's handle on a load-generator process: fork it, hand it jobs, await results.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Job, JobResults, ReplyMessage } from './jobs.js';

const ENTRY = fileURLToPath(new URL('./load-generator.js', import.meta.url));

interface Pending {
  resolve(result: unknown): void;
  reject(err: Error): void;
  progress?: (data: unknown) => void;
}

export class LoadGenerator {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess, readonly name: string) {
    child.on('message', (message: ReplyMessage) => this.onMessage(message));
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        for (const p of this.pending.values()) p.reject(new Error(`load generator ${name} exited (${signal ?? code})`));
        this.pending.clear();
        resolve();
      });
    });
  }

  /** Forks a load-generator process; `name` labels its errors. */
  static start(name: string): LoadGenerator {
    // Advanced serialization: typed arrays of latencies cross as they are. WebSocket (experimental in
    // Node 20) talks to the server's inspector for the memory figure.
    const child = fork(ENTRY, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: ['--experimental-websocket', '--disable-warning=ExperimentalWarning'],
    });
    return new LoadGenerator(child, name);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Runs `job` in the process; rejects with the job's error. `progress` gets its progress reports. */
  run<J extends Job>(job: J, progress?: (data: unknown) => void): Promise<JobResults[J['kind']]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (r: unknown) => void, reject, ...(progress ? { progress } : {}) });
      this.child.send({ id, job });
    });
  }

  /** Ends the process (pending jobs reject). */
  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }

  private onMessage(message: ReplyMessage): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.type === 'progress') {
      pending.progress?.(message.data);
      return;
    }
    this.pending.delete(message.id);
    if (message.type === 'result') pending.resolve(message.result);
    else pending.reject(new Error(`load generator ${this.name}: ${message.message}`));
  }
}
