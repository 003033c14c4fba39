/** Starts an in-process server on a free loopback port with a fresh data directory. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultServerOptions, type ServerOptions } from '../../src/cli/options.js';
import { SilentLogger } from '../../src/server/logger.js';
import { Server, type ServerDeps, type ServingInfo } from '../../src/server/server.js';
import { request, type TestRequest, type TestResponse } from './test-client.js';

export interface TestServer {
  readonly server: Server;
  readonly info: ServingInfo;
  readonly dataDir: string;
  /** A request as the admin (client certificate, system:masters). */
  admin(path: string, r?: Partial<TestRequest>): Promise<TestResponse>;
  /** A request without credentials. */
  anonymous(path: string, r?: Partial<TestRequest>): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestServerSetup {
  /** Adjusts the options (the defaults listen on 127.0.0.1, port 0). */
  readonly options?: (o: ServerOptions) => ServerOptions;
  readonly deps?: Omit<ServerDeps, 'options'>;
  /** Runs after construction, before start (routes, checks, hooks). */
  readonly configure?: (server: Server) => void;
  /** Reuse a data directory (kept on close). */
  readonly dataDir?: string;
}

export async function startTestServer(setup: TestServerSetup = {}): Promise<TestServer> {
  const dataDir = setup.dataDir ?? mkdtempSync(join(tmpdir(), 'capstan-test-'));
  const base = defaultServerOptions(dataDir);
  const withLoopback: ServerOptions = { ...base, secureServing: { ...base.secureServing, bindAddress: '127.0.0.1', port: 0 } };
  const options = setup.options ? setup.options(withLoopback) : withLoopback;
  const server = new Server({ logger: new SilentLogger(), ...setup.deps, options });
  setup.configure?.(server);
  const info = await server.start();
  const ca = info.tls.servingCaPem;
  return {
    server,
    info,
    dataDir,
    admin: (path, r = {}) => request({ url: info.url + path, ca, cert: info.tls.admin.certPem, key: info.tls.admin.keyPem, ...r }),
    anonymous: (path, r = {}) => request({ url: info.url + path, ca, ...r }),
    close: async () => {
      await server.stop(1000);
      if (!setup.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
