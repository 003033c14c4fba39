/**
 * The Protobuf messages a Swagger 2.0 document becomes when a client asks /openapi/v2 for
 * `application/com.github.proto-openapi.spec.v2@v1.0+protobuf`: package `openapi.v2` of
 * github.com/google/gnostic-models (upstream parses its JSON with gnostic's compiler and marshals
 * the result). kubectl and client-go read the document only in this form.
 *
 * Each message maps the JSON keys of its Swagger object to field numbers. Most messages number
 * their fields in the order listed here and keep the `x-` keys (vendor extensions) in the field
 * after the last; `sequence` builds those. The names, numbers and key constraints are gnostic's.
 */

/**
 * How a JSON value becomes a field:
 * - a scalar: `string`, `bool`, `double`, `int64`; `strings` is a JSON array of strings;
 * - `any` / `anys`: gnostic's Any, the value as YAML text (one, or one per array element);
 * - `TypeItem`, `ItemsItem`, `AdditionalPropertiesItem`, `StringArray`: messages with a JSON form
 *   of their own (string or array; object or array; boolean or object; array);
 * - a message name: that message from a JSON object; with `[]`, one per element of a JSON array.
 */
export type FieldKind = 'string' | 'bool' | 'double' | 'int64' | 'strings' | 'any' | 'anys' | string;

export interface MessageSpec {
  /** JSON key → [field number, kind]. */
  readonly fields: ReadonlyMap<string, readonly [number, FieldKind]>;
  /** The field holding `x-` keys as NamedAny pairs. */
  readonly extensions?: number;
  /**
   * Messages that are maps: every other key (matching `keys` when given) becomes a pair of name
   * (field 1) and value (field 2, of `kind`) in repeated field `number`.
   */
  readonly entries?: { readonly number: number; readonly kind: FieldKind; readonly keys?: RegExp };
  /** Keys a JSON object must have to be this message (only tells oneof alternatives apart). */
  readonly required?: readonly string[];
  /** The values a string key may take (only tells oneof alternatives apart). */
  readonly enums?: Readonly<Record<string, readonly string[]>>;
  /** Whether a JSON object may carry keys the message does not define (gnostic checks others). */
  readonly openKeys?: boolean;
  /** A oneof: the alternatives' field numbers and messages, tried in order; the last that fits wins. */
  readonly oneOf?: ReadonlyArray<readonly [number, string]>;
}

type Keys = ReadonlyArray<readonly [string, FieldKind]>;

/** Fields numbered 1.. in the order given, then the vendor extensions. */
function sequence(keys: Keys, rest: Omit<MessageSpec, 'fields' | 'extensions'> = {}, withExtensions = true): MessageSpec {
  const fields = new Map(keys.map(([key, kind], i) => [key, [i + 1, kind] as const]));
  return { fields, ...(withExtensions ? { extensions: keys.length + 1 } : {}), ...rest };
}

function mapOf(kind: FieldKind): MessageSpec {
  return { fields: new Map(), entries: { number: 1, kind } };
}

/** The validation keywords non-body parameters, headers and primitive items share, in gnostic's order. */
const VALIDATIONS: Keys = [
  ['default', 'any'], ['maximum', 'double'], ['exclusiveMaximum', 'bool'], ['minimum', 'double'],
  ['exclusiveMinimum', 'bool'], ['maxLength', 'int64'], ['minLength', 'int64'], ['pattern', 'string'],
  ['maxItems', 'int64'], ['minItems', 'int64'], ['uniqueItems', 'bool'], ['enum', 'anys'], ['multipleOf', 'double'],
];
const PRIMITIVE: Keys = [['type', 'string'], ['format', 'string'], ['items', 'PrimitivesItems'], ['collectionFormat', 'string']];
const PRIMITIVE_TYPES = ['string', 'number', 'boolean', 'integer', 'array'];

function parameterSubSchema(location: string, allowEmptyValue: boolean, types: readonly string[]): MessageSpec {
  return sequence(
    [['required', 'bool'], ['in', 'string'], ['description', 'string'], ['name', 'string'],
      ...(allowEmptyValue ? [['allowEmptyValue', 'bool'] as const] : []), ...PRIMITIVE, ...VALIDATIONS],
    { enums: { in: [location], type: types }, ...(location === 'path' ? { required: ['required'] } : {}) },
  );
}

function oauth2(flow: string, keys: Keys, required: readonly string[]): MessageSpec {
  return sequence([['type', 'string'], ['flow', 'string'], ['scopes', 'Oauth2Scopes'], ...keys, ['description', 'string']],
    { required: ['type', 'flow', ...required], enums: { type: ['oauth2'], flow: [flow] } });
}

export const ROOT_MESSAGE = 'Document';

export const MESSAGES: Readonly<Record<string, MessageSpec>> = {
  Document: sequence([
    ['swagger', 'string'], ['info', 'Info'], ['host', 'string'], ['basePath', 'string'], ['schemes', 'strings'],
    ['consumes', 'strings'], ['produces', 'strings'], ['paths', 'Paths'], ['definitions', 'Definitions'],
    ['parameters', 'ParameterDefinitions'], ['responses', 'ResponseDefinitions'], ['security', 'SecurityRequirement[]'],
    ['securityDefinitions', 'SecurityDefinitions'], ['tags', 'Tag[]'], ['externalDocs', 'ExternalDocs'],
  ]),
  Info: sequence([['title', 'string'], ['version', 'string'], ['description', 'string'], ['termsOfService', 'string'], ['contact', 'Contact'], ['license', 'License']]),
  Contact: sequence([['name', 'string'], ['url', 'string'], ['email', 'string']]),
  License: sequence([['name', 'string'], ['url', 'string']]),
  ExternalDocs: sequence([['description', 'string'], ['url', 'string']]),
  Tag: sequence([['name', 'string'], ['description', 'string'], ['externalDocs', 'ExternalDocs']]),
  Paths: { fields: new Map(), extensions: 1, entries: { number: 2, kind: 'PathItem', keys: /^\// } },
  PathItem: sequence([
    ['$ref', 'string'], ['get', 'Operation'], ['put', 'Operation'], ['post', 'Operation'], ['delete', 'Operation'],
    ['options', 'Operation'], ['head', 'Operation'], ['patch', 'Operation'], ['parameters', 'ParametersItem[]'],
  ]),
  Operation: sequence([
    ['tags', 'strings'], ['summary', 'string'], ['description', 'string'], ['externalDocs', 'ExternalDocs'],
    ['operationId', 'string'], ['produces', 'strings'], ['consumes', 'strings'], ['parameters', 'ParametersItem[]'],
    ['responses', 'Responses'], ['schemes', 'strings'], ['deprecated', 'bool'], ['security', 'SecurityRequirement[]'],
  ], { required: ['responses'] }),
  ParametersItem: { fields: new Map(), oneOf: [[1, 'Parameter'], [2, 'JsonReference']] },
  Parameter: { fields: new Map(), oneOf: [[1, 'BodyParameter'], [2, 'NonBodyParameter']] },
  BodyParameter: sequence([['description', 'string'], ['name', 'string'], ['in', 'string'], ['required', 'bool'], ['schema', 'Schema']],
    { required: ['in', 'name', 'schema'], enums: { in: ['body'] } }),
  NonBodyParameter: {
    fields: new Map(),
    required: ['in', 'name', 'type'],
    oneOf: [[1, 'HeaderParameterSubSchema'], [2, 'FormDataParameterSubSchema'], [3, 'QueryParameterSubSchema'], [4, 'PathParameterSubSchema']],
  },
  HeaderParameterSubSchema: parameterSubSchema('header', false, PRIMITIVE_TYPES),
  FormDataParameterSubSchema: parameterSubSchema('formData', true, [...PRIMITIVE_TYPES, 'file']),
  QueryParameterSubSchema: parameterSubSchema('query', true, PRIMITIVE_TYPES),
  PathParameterSubSchema: parameterSubSchema('path', false, PRIMITIVE_TYPES),
  PrimitivesItems: sequence([...PRIMITIVE, ...VALIDATIONS]),
  Header: sequence([...PRIMITIVE, ...VALIDATIONS, ['description', 'string']], { required: ['type'] }),
  JsonReference: sequence([['$ref', 'string'], ['description', 'string']], { required: ['$ref'], openKeys: true }, false),
  Responses: { fields: new Map(), extensions: 2, entries: { number: 1, kind: 'ResponseValue', keys: /^([0-9]{3})$|^(default)$/ } },
  ResponseValue: { fields: new Map(), oneOf: [[1, 'Response'], [2, 'JsonReference']] },
  Response: sequence([['description', 'string'], ['schema', 'SchemaItem'], ['headers', 'Headers'], ['examples', 'Examples']], { required: ['description'] }),
  SchemaItem: { fields: new Map(), oneOf: [[1, 'Schema'], [2, 'FileSchema']] },
  FileSchema: sequence([
    ['format', 'string'], ['title', 'string'], ['description', 'string'], ['default', 'any'], ['required', 'strings'],
    ['type', 'string'], ['readOnly', 'bool'], ['externalDocs', 'ExternalDocs'], ['example', 'any'],
  ], { required: ['type'], enums: { type: ['file'] } }),
  Schema: sequence([
    ['$ref', 'string'], ['format', 'string'], ['title', 'string'], ['description', 'string'], ['default', 'any'],
    ['multipleOf', 'double'], ['maximum', 'double'], ['exclusiveMaximum', 'bool'], ['minimum', 'double'],
    ['exclusiveMinimum', 'bool'], ['maxLength', 'int64'], ['minLength', 'int64'], ['pattern', 'string'],
    ['maxItems', 'int64'], ['minItems', 'int64'], ['uniqueItems', 'bool'], ['maxProperties', 'int64'],
    ['minProperties', 'int64'], ['required', 'strings'], ['enum', 'anys'], ['additionalProperties', 'AdditionalPropertiesItem'],
    ['type', 'TypeItem'], ['items', 'ItemsItem'], ['allOf', 'Schema[]'], ['properties', 'Properties'],
    ['discriminator', 'string'], ['readOnly', 'bool'], ['xml', 'Xml'], ['externalDocs', 'ExternalDocs'], ['example', 'any'],
  ]),
  Xml: sequence([['name', 'string'], ['namespace', 'string'], ['prefix', 'string'], ['attribute', 'bool'], ['wrapped', 'bool']]),
  Definitions: mapOf('Schema'),
  Properties: mapOf('Schema'),
  ParameterDefinitions: mapOf('Parameter'),
  ResponseDefinitions: mapOf('Response'),
  Headers: mapOf('Header'),
  Examples: mapOf('any'),
  SecurityRequirement: mapOf('StringArray'),
  SecurityDefinitions: mapOf('SecurityDefinitionsItem'),
  SecurityDefinitionsItem: {
    fields: new Map(),
    oneOf: [
      [1, 'BasicAuthenticationSecurity'], [2, 'ApiKeySecurity'], [3, 'Oauth2ImplicitSecurity'],
      [4, 'Oauth2PasswordSecurity'], [5, 'Oauth2ApplicationSecurity'], [6, 'Oauth2AccessCodeSecurity'],
    ],
  },
  BasicAuthenticationSecurity: sequence([['type', 'string'], ['description', 'string']], { required: ['type'], enums: { type: ['basic'] } }),
  ApiKeySecurity: sequence([['type', 'string'], ['name', 'string'], ['in', 'string'], ['description', 'string']],
    { required: ['type', 'name', 'in'], enums: { type: ['apiKey'], in: ['header', 'query'] } }),
  Oauth2ImplicitSecurity: oauth2('implicit', [['authorizationUrl', 'string']], ['authorizationUrl']),
  Oauth2PasswordSecurity: oauth2('password', [['tokenUrl', 'string']], ['tokenUrl']),
  Oauth2ApplicationSecurity: oauth2('application', [['tokenUrl', 'string']], ['tokenUrl']),
  Oauth2AccessCodeSecurity: oauth2('accessCode', [['authorizationUrl', 'string'], ['tokenUrl', 'string']], ['authorizationUrl', 'tokenUrl']),
  Oauth2Scopes: mapOf('string'),
};
