/**
 * Several namespace gates run as one, in order (upstream runs NamespaceAutoProvision before
 * NamespaceLifecycle, so that the namespace it creates is found). Synchronous while every gate
 * answers synchronously, as each does when the cache holds the namespace.
 */
import type { ResourceRef } from '../api/errors.js';
import type { NamespaceGate } from '../registry/store/store-context.js';

export class NamespaceGates implements NamespaceGate {
  constructor(private readonly gates: readonly NamespaceGate[]) {}

  /** Throws what the first refusing gate throws. */
  checkCreate(namespace: string, ref: ResourceRef): Promise<void> | void {
    for (let i = 0; i < this.gates.length; i++) {
      const checking = this.gates[i]!.checkCreate(namespace, ref);
      if (checking) return checking.then(() => this.#from(i + 1, namespace, ref));
    }
  }

  async #from(start: number, namespace: string, ref: ResourceRef): Promise<void> {
    for (const gate of this.gates.slice(start)) await gate.checkCreate(namespace, ref);
  }
}
