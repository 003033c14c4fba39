/**
 * The router at the end of the handler chain: every resource request goes to the one resource
 * handler; non-resource requests are matched by path, exactly or by the longest prefix.
 */
import { pathNotFound } from '../api/errors.js';
import { rejectingThrows } from '../util/promises.js';
import type { Handler, RequestContext } from './request-context.js';

/** Answers every resource request with 404 until a real resource handler is installed. */
export const notFoundHandler: Handler = async () => {
  throw pathNotFound();
};

/** Non-resource routes; discovery, openapi, health and version register here. */
export class RouteTable {
  private readonly exact = new Map<string, Handler>();
  /** Sorted longest first, so the most specific prefix wins. */
  private prefixes: Array<{ prefix: string; handler: Handler }> = [];

  /**
   * Serves `path` exactly. Throws if the path is already taken, so that two components cannot
   * silently shadow each other.
   */
  add(path: string, handler: Handler): this {
    if (this.exact.has(path)) throw new Error(`route ${path} is already registered`);
    this.exact.set(path, handler);
    return this;
  }

  /** Serves every path starting with `prefix` (e.g. `/apis/`) that no exact route serves. */
  addPrefix(prefix: string, handler: Handler): this {
    if (this.prefixes.some((p) => p.prefix === prefix)) throw new Error(`route prefix ${prefix} is already registered`);
    this.prefixes = [...this.prefixes, { prefix, handler }].sort((a, b) => b.prefix.length - a.prefix.length);
    return this;
  }

  /** The handler for a path, or undefined. */
  match(path: string): Handler | undefined {
    return this.exact.get(path) ?? this.prefixes.find((p) => path.startsWith(p.prefix))?.handler;
  }

  /** Registered exact paths and prefixes (prefixes end in `*`), for logs and the root listing. */
  paths(): string[] {
    return [...this.exact.keys(), ...this.prefixes.map((p) => `${p.prefix}*`)].sort();
  }
}

export class Router {
  readonly routes = new RouteTable();
  private resourceHandler: Handler;

  constructor(resourceHandler: Handler = notFoundHandler) {
    this.resourceHandler = resourceHandler;
  }

  /** Installs the handler that serves every resource request (`/api/v1/...`, `/apis/g/v/...`). */
  setResourceHandler(handler: Handler): void {
    this.resourceHandler = handler;
  }

  /** The chain's innermost handler. */
  readonly handle: Handler = rejectingThrows((ctx: RequestContext) => {
    if (ctx.info.isResourceRequest) return this.resourceHandler(ctx);
    const handler = this.routes.match(ctx.info.path);
    if (!handler) throw pathNotFound();
    return handler(ctx);
  });
}
