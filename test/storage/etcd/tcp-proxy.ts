/**
 * A TCP proxy a test can cut and restore, to drop a client's connections to etcd on demand while
 * etcd itself stays up (so the test can write and compact behind the client's back).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  private connected = true;

  private constructor(private readonly targetPort: number) {
    this.server = createServer((client) => this.accept(client));
  }

  /** Listens on a free port of 127.0.0.1 and forwards to `targetPort` there. */
  static async start(targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('the proxy is not listening');
    return address.port;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Drops every open connection and refuses new ones until restore(). */
  cut(): void {
    this.connected = false;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.connected = true;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (!this.connected) {
      client.destroy();
      return;
    }
    const upstream = connect(this.targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      // A reset is how a cut looks from here; the other side is destroyed below.
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
