/**
 * /version. Clients branch on it: kubectl warns about skew and the kubectl dispatcher picks its
 * client by major/minor, so those follow the served Kubernetes release exactly. Fields that
 * describe a Go build say honestly that there is none.
 */
import { arch, platform } from 'node:process';
import { writeObject } from './write-response.js';
import type { Handler } from './request-context.js';

/** The wire shape of upstream's version.Info, in its field order. */
export interface VersionInfo {
  major: string;
  minor: string;
  emulationMajor: string;
  emulationMinor: string;
  minCompatibilityMajor: string;
  minCompatibilityMinor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' };

/** Version info for a `vMAJOR.MINOR.PATCH[-suffix]` release string. Throws on other strings. */
export function versionInfo(gitVersion: string): VersionInfo {
  const match = /^v(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(gitVersion);
  if (!match) throw new Error(`version ${JSON.stringify(gitVersion)} is not of the form vX.Y.Z`);
  const [, major, minor] = match as unknown as [string, string, string];
  return {
    major,
    minor,
    emulationMajor: major,
    emulationMinor: minor,
    minCompatibilityMajor: major,
    minCompatibilityMinor: String(Math.max(0, Number(minor) - 1)),
    gitVersion,
    gitCommit: '',
    gitTreeState: '',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: '',
    compiler: 'capstan',
    platform: `${platform}/${GO_ARCH[arch] ?? arch}`,
  };
}

/** Serves /version: always indented JSON, as upstream writes it. */
export function versionHandler(info: VersionInfo): Handler {
  return async (ctx) => {
    writeObject(ctx, 200, info, { pretty: true });
  };
}
