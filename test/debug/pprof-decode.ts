/**
 * Reads a pprof profile back for the tests, with protobufjs and the fields of pprof's
 * profile.proto that the server writes (field numbers as in github.com/google/pprof), and names
 * each sample's stack.
 */
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';

const PROFILE_PROTO = `
syntax = "proto3";
package perftools.profiles;
message Profile {
  repeated ValueType sample_type = 1;
  repeated Sample sample = 2;
  repeated Location location = 4;
  repeated Function function = 5;
  repeated string string_table = 6;
  int64 time_nanos = 9;
  int64 duration_nanos = 10;
  ValueType period_type = 11;
  int64 period = 12;
  int64 default_sample_type = 14;
}
message ValueType { int64 type = 1; int64 unit = 2; }
message Sample { repeated uint64 location_id = 1; repeated int64 value = 2; }
message Location { uint64 id = 1; repeated Line line = 4; }
message Line { uint64 function_id = 1; int64 line = 2; }
message Function { uint64 id = 1; int64 name = 2; int64 system_name = 3; int64 filename = 4; int64 start_line = 5; }
`;

const ProfileType = protobuf.parse(PROFILE_PROTO, { keepCase: true }).root.lookupType('perftools.profiles.Profile');

export interface DecodedFunction {
  readonly name: string;
  readonly filename: string;
  readonly startLine: number;
}

export interface DecodedProfile {
  readonly sampleTypes: string[];
  readonly periodType: string;
  readonly period: number;
  readonly defaultSampleType: string;
  readonly timeNanos: bigint;
  readonly durationNanos: number;
  readonly strings: string[];
  readonly functions: DecodedFunction[];
  /** Each sample: its stack as function names (leaf first), its values, and its lines. */
  readonly samples: Array<{ stack: string[]; lines: number[]; values: number[] }>;
}

/** Decodes a profile, gunzipping it first when it starts with gzip's magic bytes. */
export function decodeProfile(bytes: Uint8Array): DecodedProfile {
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  const p = ProfileType.toObject(ProfileType.decode(raw), { longs: String, defaults: true }) as any;
  const strings: string[] = p.string_table;
  const text = (index: string) => strings[Number(index)]!;
  const functions = new Map<string, DecodedFunction>(p.function.map((f: any) => [f.id, { name: text(f.name), filename: text(f.filename), startLine: Number(f.start_line) }]));
  const locations = new Map<string, { name: string; line: number }>(
    p.location.map((l: any) => [l.id, { name: functions.get(l.line[0].function_id)!.name, line: Number(l.line[0].line) }]),
  );
  return {
    sampleTypes: p.sample_type.map((t: any) => `${text(t.type)}/${text(t.unit)}`),
    periodType: `${text(p.period_type.type)}/${text(p.period_type.unit)}`,
    period: Number(p.period),
    defaultSampleType: text(p.default_sample_type),
    timeNanos: BigInt(p.time_nanos),
    durationNanos: Number(p.duration_nanos),
    strings,
    functions: [...functions.values()],
    samples: p.sample.map((s: any) => ({
      stack: s.location_id.map((id: string) => locations.get(id)!.name),
      lines: s.location_id.map((id: string) => locations.get(id)!.line),
      values: s.value.map(Number),
    })),
  };
}
