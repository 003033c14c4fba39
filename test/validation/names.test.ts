import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isDns1035Label, isDns1123Label, isDns1123Subdomain } from '../../src/validation/dns-names.js';
import { nameIsDns1035Label, nameIsDnsLabel, nameIsDnsSubdomain, nameIsPathSegment } from '../../src/validation/name-validators.js';
import { isQualifiedName, isValidLabelValue } from '../../src/validation/qualified-names.js';

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

type Check = (value: string) => string[];
interface Case {
  name: string;
  value: string;
  want: string[];
}

function table(title: string, check: Check, cases: Case[]): void {
  describe(title, () => {
    for (const c of cases) it(c.name, () => assert.deepEqual(check(c.value), c.want));
  });
}

table('isDns1123Subdomain', isDns1123Subdomain, [
  { name: 'simple', value: 'cm1', want: [] },
  { name: 'dotted', value: 'example.com', want: [] },
  { name: 'dashes inside', value: 'a-b.c-d', want: [] },
  { name: 'upper case and underscore (golden)', value: 'Bad_Name', want: [SUBDOMAIN] },
  { name: 'empty', value: '', want: [SUBDOMAIN] },
  { name: 'leading dash', value: '-a', want: [SUBDOMAIN] },
  { name: 'trailing dot', value: 'a.', want: [SUBDOMAIN] },
  { name: 'double dot', value: 'a..b', want: [SUBDOMAIN] },
  { name: '253 characters', value: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`, want: [] },
  { name: '254 characters', value: 'a'.repeat(254), want: ['must be no more than 253 characters'] },
  { name: 'too long and invalid', value: 'A'.repeat(254), want: ['must be no more than 253 characters', SUBDOMAIN] },
]);

table('isDns1123Label', isDns1123Label, [
  { name: 'simple', value: 'default', want: [] },
  { name: 'starts with a digit', value: '1abc', want: [] },
  { name: 'dots', value: 'a.b', want: ['must not contain dots'] },
  { name: 'upper case', value: 'Default', want: [LABEL] },
  { name: '63 characters', value: 'a'.repeat(63), want: [] },
  { name: '64 characters', value: 'a'.repeat(64), want: ['must be no more than 63 characters'] },
]);

table('isDns1035Label', isDns1035Label, [
  { name: 'simple', value: 'my-service', want: [] },
  { name: 'starts with a digit', value: '1abc', want: [DNS1035] },
  { name: 'trailing dash', value: 'abc-', want: [DNS1035] },
  { name: '64 characters', value: 'a'.repeat(64), want: ['must be no more than 63 characters'] },
]);

table('isQualifiedName', isQualifiedName, [
  { name: 'plain', value: 'app', want: [] },
  { name: 'mixed case with dots', value: 'My.Name_1', want: [] },
  { name: 'prefixed', value: 'example.com/MyName', want: [] },
  { name: 'empty', value: '', want: ['name part must be non-empty', NAME_PART] },
  { name: 'empty prefix', value: '/name', want: ['prefix part must be non-empty'] },
  { name: 'bad prefix', value: 'Example.com/name', want: [`prefix part ${SUBDOMAIN}`] },
  { name: 'empty name part', value: 'example.com/', want: ['name part must be non-empty', NAME_PART] },
  { name: 'name part too long', value: `x/${'a'.repeat(64)}`, want: ['name part must be no more than 63 characters'] },
  { name: 'bad character', value: 'a b', want: [NAME_PART] },
  {
    name: 'two slashes',
    value: 'a/b/c',
    want: [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
  },
]);

table('isValidLabelValue', isValidLabelValue, [
  { name: 'empty is fine', value: '', want: [] },
  { name: 'plain', value: 'my_value-1.0', want: [] },
  { name: 'leading dash', value: '-x', want: [LABEL_VALUE] },
  { name: 'slash', value: 'a/b', want: [LABEL_VALUE] },
  { name: '64 characters', value: 'a'.repeat(64), want: ['must be no more than 63 characters'] },
]);

describe('name validators', () => {
  const cases: { name: string; check: (n: string, p: boolean) => string[]; value: string; prefix: boolean; valid: boolean }[] = [
    { name: 'subdomain name', check: nameIsDnsSubdomain, value: 'web-1', prefix: false, valid: true },
    { name: 'subdomain prefix with trailing dash', check: nameIsDnsSubdomain, value: 'web-', prefix: true, valid: true },
    { name: 'trailing dash is not a name', check: nameIsDnsSubdomain, value: 'web-', prefix: false, valid: false },
    { name: 'masking drops the character before the dash too, as upstream', check: nameIsDnsSubdomain, value: 'a.-', prefix: true, valid: true },
    { name: 'label prefix', check: nameIsDnsLabel, value: 'ns-', prefix: true, valid: true },
    { name: 'label prefix with a dot', check: nameIsDnsLabel, value: 'a.b-', prefix: true, valid: false },
    { name: 'service prefix', check: nameIsDns1035Label, value: 'svc-', prefix: true, valid: true },
    { name: 'service name starting with a digit', check: nameIsDns1035Label, value: '1svc', prefix: false, valid: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(c.check(c.value, c.prefix).length === 0, c.valid));

  const segments: { name: string; value: string; prefix: boolean; want: string[] }[] = [
    { name: 'anything else goes', value: 'system:Admin_1 x', prefix: false, want: [] },
    { name: 'dot', value: '.', prefix: false, want: ["may not be '.'"] },
    { name: 'dot dot', value: '..', prefix: false, want: ["may not be '..'"] },
    { name: 'dot dot as a prefix', value: '..', prefix: true, want: [] },
    { name: 'slash and percent', value: 'a/b%c', prefix: false, want: ["may not contain '/'", "may not contain '%'"] },
    { name: 'slash in a prefix', value: 'a/', prefix: true, want: ["may not contain '/'"] },
  ];
  for (const c of segments) it(`path segment: ${c.name}`, () => assert.deepEqual(nameIsPathSegment(c.value, c.prefix), c.want));
});
