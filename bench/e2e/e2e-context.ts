/**
 * What every workload gets: the settings, the server under test, the two load-generator processes,
 * a scratch directory, the run's namespaces, and somewhere to note problems and method. A context
 * for a second server (see {@link E2eContext.withServer}) shares all of it but the server.
 */
import { sendOnce } from './https-client.js';
import type { LoadGenerator } from './load-generator-client.js';
import type { E2eSettings } from './settings.js';
import type { ServerHandle } from './server-handle.js';
import type { Target } from './target.js';

/** What a namespace is for; each workload writes into its own. */
export type Purpose = 'create' | 'list' | 'watch' | 'apply' | 'fill' | 'sample';

/** What the run writes down besides figures; shared by every context of one run. */
interface Journal {
  /** Things that went wrong without stopping the run; reported under the table. */
  readonly problems: string[];
  /** How each workload measured, one line each; reported under the table. */
  readonly method: string[];
  /** Measured details that are not figures (setup times, client CPU); printed and reported. */
  readonly notes: string[];
  /** Servers started for a workload, stopped when the run ends. */
  readonly extraServers: ServerHandle[];
}

export class E2eContext {
  private readonly created = new Set<string>();
  private readonly prepared = new Map<string, Promise<unknown>>();

  constructor(
    readonly settings: E2eSettings,
    readonly server: ServerHandle,
    /** Sends the workloads' load. */
    readonly load: LoadGenerator,
    /** A second process, for the writer that runs while `load` watches. */
    readonly writer: LoadGenerator,
    readonly scratch: string,
    /** Prefixes namespace names; unique per run against an external server. */
    private readonly namespacePrefix: string,
    private readonly journal: Journal = { problems: [], method: [], notes: [], extraServers: [] },
  ) {}

  get problems(): string[] {
    return this.journal.problems;
  }

  get method(): string[] {
    return this.journal.method;
  }

  get notes(): string[] {
    return this.journal.notes;
  }

  /** For a job that reads the server's CPU: its process, when the benchmark runs it on this machine. */
  get serverProcess(): { readonly serverPid?: number } {
    return this.server.capstan ? { serverPid: this.server.capstan.pid } : {};
  }

  /** A context for `server` (stopped with the run), sharing everything else with this one. */
  withServer(server: ServerHandle): E2eContext {
    this.journal.extraServers.push(server);
    return new E2eContext(this.settings, server, this.load, this.writer, this.scratch, this.namespacePrefix, this.journal);
  }

  /** Stops the servers started for workloads (not the server under test). */
  async stopExtraServers(): Promise<void> {
    for (const server of this.journal.extraServers.splice(0)) await server.stop();
  }

  get target(): Target {
    return this.server.target;
  }

  get ownsServer(): boolean {
    return this.server.capstan !== undefined;
  }

  /** The namespace for `purpose`, created on first use. */
  async namespace(purpose: Purpose): Promise<string> {
    const name = `${this.namespacePrefix}-${purpose}`;
    if (this.created.has(name)) return name;
    const reply = await sendOnce(this.target, {
      method: 'POST',
      path: '/api/v1/namespaces',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
    });
    if (reply.status !== 201 && reply.status !== 409) throw new Error(`creating namespace ${name}: HTTP ${reply.status}: ${reply.text.slice(0, 300)}`);
    this.created.add(name);
    return name;
  }

  /** Runs `prepare` once per `key`; later calls share its result. */
  once<T>(key: string, prepare: () => Promise<T>): Promise<T> {
    let p = this.prepared.get(key) as Promise<T> | undefined;
    if (!p) {
      p = prepare();
      this.prepared.set(key, p);
    }
    return p;
  }

  /** Deletes the run's namespaces (on an external server; Capstan's data directory is removed instead). */
  async deleteNamespaces(): Promise<void> {
    for (const name of this.created) {
      await sendOnce(this.target, { method: 'DELETE', path: `/api/v1/namespaces/${name}` }).catch(() => undefined);
    }
  }
}
