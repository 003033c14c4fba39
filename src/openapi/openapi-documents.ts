/**
 * /openapi/v2 and /openapi/v3 built from the catalog and the compact schemas. Nothing is built
 * until first asked for; every document is built once per instance and kept as serialized JSON
 * with its hash, so serving it costs a map lookup.
 */
import { createHash } from 'node:crypto';
import type { Catalog, CatalogGroupVersion } from '../registry/catalog/catalog.js';
import type { SchemaSet } from '../registry/schema/schema-set.js';
import { groupVersionPaths, type PathItem } from './operations.js';
import { bodyDefinitions, renderPathItem } from './render-operation.js';
import { referencedDefinitions, toOpenApiSchema, type OpenApiFlavor } from './schema-conversion.js';
import { encodeOpenApiV2Protobuf } from './openapi-v2-protobuf.js';

/** A serialized document and its hash (uppercase hex SHA-512 of the body, as upstream). */
export interface ServedDocument {
  /** The document's JSON, encoded once. */
  readonly body: Buffer;
  readonly hash: string;
}

const V3_INFO = { title: 'Kubernetes', version: 'unversioned' };
const BEARER = { BearerToken: { in: 'header', name: 'authorization', type: 'apiKey' } };

export class OpenApiDocuments {
  readonly #catalog: Catalog;
  readonly #schemas: () => SchemaSet;
  readonly #gitVersion: string;
  readonly #v3 = new Map<string, ServedDocument | undefined>();
  #v2: ServedDocument | undefined;
  #v2Protobuf: ServedDocument | undefined;
  #v3Index: ServedDocument | undefined;

  /**
   * @param schemas gives the schema set when first needed (the caller memoizes it).
   * @param gitVersion the version reported in the Swagger 2.0 info, e.g. "v1.35.0".
   */
  constructor(catalog: Catalog, schemas: () => SchemaSet, gitVersion: string) {
    this.#catalog = catalog;
    this.#schemas = schemas;
    this.#gitVersion = gitVersion;
  }

  /**
   * Every path key /openapi/v3 lists: "api/v1", "apis/apps/v1", ... Upstream also lists the
   * discovery roots ("api", "apis", "apis/apps"), whose schemas the reference documents lack; they
   * matter to no client, so they are left out.
   */
  v3Paths(): string[] {
    return this.#catalog.groupVersions().map((gv) => (gv.group === '' ? `api/${gv.version}` : `apis/${gv.group}/${gv.version}`)).sort();
  }

  /** GET /openapi/v3: `{"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=..."}}}`. */
  v3Index(): ServedDocument {
    this.#v3Index ??= serve({
      paths: Object.fromEntries(this.v3Paths().map((key) => [key, { serverRelativeURL: `/openapi/v3/${key}?hash=${this.v3(key)!.hash}` }])),
    });
    return this.#v3Index;
  }

  /** GET /openapi/v3/{path}, or undefined for a path the index does not list. */
  v3(path: string): ServedDocument | undefined {
    if (!this.#v3.has(path)) this.#v3.set(path, this.#buildV3(path));
    return this.#v3.get(path);
  }

  /** GET /openapi/v2: one Swagger 2.0 document of every served group-version. */
  v2(): ServedDocument {
    if (!this.#v2) {
      const items = this.#catalog.groupVersions().flatMap(groupVersionPaths);
      items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      this.#v2 = serve({
        swagger: '2.0',
        info: { title: 'Kubernetes', version: this.#gitVersion },
        paths: this.#paths(items, 'v2'),
        definitions: this.#definitions(bodyDefinitions(items), 'v2'),
        securityDefinitions: BEARER,
        security: [{ BearerToken: [] }],
      });
    }
    return this.#v2;
  }

  /**
   * GET /openapi/v2 as Protobuf (what kubectl and client-go ask for), made from the JSON document
   * on first request. Upstream gives it the JSON's ETag; it has its own here, because kubectl's
   * HTTP cache revalidates by ETag alone, and a cache that holds the JSON form (from a Capstan
   * that served only JSON) would otherwise keep answering kubectl's Protobuf requests with it.
   */
  v2Protobuf(): ServedDocument {
    this.#v2Protobuf ??= hashed(Buffer.from(encodeOpenApiV2Protobuf(JSON.parse(this.v2().body.toString('utf8')))));
    return this.#v2Protobuf;
  }

  #buildV3(path: string): ServedDocument | undefined {
    const gv = this.#groupVersionOf(path);
    if (!gv) return undefined;
    const items = groupVersionPaths(gv);
    return serve({
      openapi: '3.0.0',
      info: V3_INFO,
      paths: this.#paths(items, 'v3'),
      components: { schemas: this.#definitions(bodyDefinitions(items), 'v3'), securitySchemes: BEARER },
    });
  }

  #groupVersionOf(path: string): CatalogGroupVersion | undefined {
    const parts = path.split('/');
    const [group, version] = parts[0] === 'api' && parts.length === 2 ? ['', parts[1]!]
      : parts[0] === 'apis' && parts.length === 3 ? [parts[1]!, parts[2]!] : [undefined, undefined];
    if (group === undefined || !this.#catalog.servesGroupVersion(group, version)) return undefined;
    return this.#catalog.groupVersions().find((gv) => gv.group === group && gv.version === version);
  }

  #paths(items: readonly PathItem[], flavor: OpenApiFlavor): Record<string, unknown> {
    return Object.fromEntries(items.map((item) => [item.path, renderPathItem(item, flavor)]));
  }

  #definitions(roots: Iterable<string>, flavor: OpenApiFlavor): Record<string, unknown> {
    const schemas = this.#schemas();
    const names = referencedDefinitions(roots, (name) => schemas.definition(name));
    return Object.fromEntries(names.map((name) => [name, toOpenApiSchema(schemas.definition(name)!, flavor)]));
  }
}

function serve(document: unknown): ServedDocument {
  return hashed(Buffer.from(JSON.stringify(document), 'utf8'));
}

function hashed(body: Buffer): ServedDocument {
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
}

