/**
 * Runs the BUILT `confab` (packages/cli/dist/index.js) as a user does: a child process with its
 * own config dir. Every invocation must exit by itself within a bound; one that has to be killed
 * fails the test (that is how a CLI that never exits, e.g. held open by a socket, shows up).
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { NodeUnderTest } from './nodes';

export const cliEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

export function assertBuilt(): void {
  if (!existsSync(cliEntry)) {
    throw new Error('packages/cli/dist/index.js is missing: build first (pnpm --filter @confab/client --filter @confab/cli build).');
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** Added to the child's environment. */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed (closed at once when absent). */
  input?: string;
  /** How long the command may take before it is killed and the test fails. Default 20 000. */
  exitWithinMs?: number;
}

/** Variables of this process that must not leak into a child `confab` (or its Node). */
const isolated = ['CONFAB_SERVER', 'CONFAB_AGENT_KEY', 'CONFAB_PASSWORD', 'CONFAB_CONFIG_DIR', 'NODE_OPTIONS', 'NODE_PATH'];

export function childEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  for (const name of isolated) delete environment[name];
  return { ...environment, NO_COLOR: '1', ...extra };
}

/** A CLI bound to one Node and one config dir. */
export class Confab {
  constructor(
    readonly node: NodeUnderTest,
    readonly configDir: string,
  ) {}

  /** Runs `confab …args` to completion; rejects when it had to be killed. */
  async run(args: string[], options: CliOptions = {}): Promise<CliResult> {
    const child = this.spawn(args, options);
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
    const output = collect(child);
    const exitWithinMs = options.exitWithinMs ?? 20_000;
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, exitWithinMs);
    const code = await exited(child);
    clearTimeout(timer);
    if (killed) {
      throw new Error(`\`confab ${args.join(' ')}\` on ${this.node.name} did not exit within ${exitWithinMs} ms and was killed.\nstdout: ${output.stdout}\nstderr: ${output.stderr}`);
    }
    return { code, stdout: output.stdout, stderr: output.stderr };
  }

  /** `run` plus the parsed JSON of its stdout (one object), for `--json` commands. */
  async json<Value = Record<string, unknown>>(args: string[], options: CliOptions = {}): Promise<{ code: number | null; value: Value; stderr: string }> {
    const result = await this.run([...args, '--json'], options);
    let value: Value;
    try {
      value = JSON.parse(result.stdout) as Value;
    } catch {
      throw new Error(`\`confab ${args.join(' ')} --json\` printed no JSON.\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
    }
    return { code: result.code, value, stderr: result.stderr };
  }

  /**
   * Runs `confab …args` on a pseudo-terminal (util-linux `script`), as a person at a terminal
   * does: each `type` is sent once the output shows its `after`. `output` is everything the
   * terminal displayed, echo included, so a prompt that echoes shows up in it.
   */
  async inTerminal(args: string[], steps: { after: string; type: string }[], exitWithinMs = 20_000): Promise<{ code: number | null; output: string }> {
    const command = [this.node.path, cliEntry, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: childEnvironment({ CONFAB_CONFIG_DIR: this.configDir }),
      stdio: 'pipe',
    });
    let output = '';
    let step = 0;
    const advance = () => {
      while (step < steps.length && output.includes(steps[step]?.after ?? '')) {
        child.stdin.write(steps[step]?.type ?? '');
        step += 1;
      }
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      advance();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), exitWithinMs);
    const code = await exited(child);
    clearTimeout(timer);
    child.stdin.destroy();
    if (step < steps.length) throw new Error(`\`confab ${args.join(' ')}\` on a terminal ended (${code}) before showing ${JSON.stringify(steps[step]?.after)}.\noutput: ${output}`);
    return { code, output };
  }

  /** Starts a command that runs until stopped (`run`, `tail`), reading its NDJSON lines. */
  start(args: string[], options: CliOptions = {}): LongRunning {
    const child = this.spawn(args, options);
    child.stdin.end();
    return new LongRunning(child, `confab ${args.join(' ')} on ${this.node.name}`);
  }

  private spawn(args: string[], options: CliOptions): ChildProcessWithoutNullStreams {
    return spawn(this.node.path, [cliEntry, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: childEnvironment({ CONFAB_CONFIG_DIR: this.configDir, ...options.env }),
      stdio: 'pipe',
    });
  }
}

type Line = Record<string, unknown>;

/** A child printing NDJSON: wait for lines, signal it, and require that it exits by itself. */
export class LongRunning {
  readonly lines: Line[] = [];
  readonly output: { stdout: string; stderr: string };
  private readonly waiters = new Set<() => void>();
  private readonly exit: Promise<number | null>;
  private exitCode: number | null | undefined;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly label: string,
  ) {
    const wakeAll = () => {
      for (const wake of [...this.waiters]) wake();
    };
    this.output = collect(
      child,
      (line) => {
        try {
          this.lines.push(JSON.parse(line) as Line);
        } catch {
          this.lines.push({ text: line });
        }
        wakeAll();
      },
      wakeAll,
    );
    this.exit = exited(child).then((code) => {
      this.exitCode = code;
      wakeAll();
      return code;
    });
  }

  /** The first line (from `from` on) that matches; rejects after timeoutMs or when the process exits first. */
  waitFor(match: (line: Line) => boolean, timeoutMs = 15_000, from = 0): Promise<Line> {
    return this.until(() => this.lines.slice(from).find(match), timeoutMs);
  }

  /** Resolves once stderr contains `text` (notices a person reads, kept off stdout). */
  async waitForStderr(text: string, timeoutMs = 15_000): Promise<void> {
    await this.until(() => (this.output.stderr.includes(text) ? true : undefined), timeoutMs);
  }

  private async until<Found>(probe: () => Found | undefined, timeoutMs: number): Promise<Found> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = probe();
      if (found !== undefined) return found;
      if (this.exitCode !== undefined) throw new Error(`${this.label} exited (${this.exitCode}) before the expected output.\n${this.describe()}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`${this.label}: not the expected output within ${timeoutMs} ms.\n${this.describe()}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, remaining);
        this.waiters.add(wake);
      });
    }
  }

  /** Sends the signal and waits for the exit; a process that has to be killed fails the test. */
  async stop(signal: NodeJS.Signals = 'SIGINT', exitWithinMs = 10_000): Promise<number | null> {
    if (this.exitCode === undefined) this.child.kill(signal);
    return this.exited(exitWithinMs);
  }

  async exited(exitWithinMs = 10_000): Promise<number | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const killed = new Promise<'killed'>((resolve) => {
      timer = setTimeout(() => resolve('killed'), exitWithinMs);
    });
    const outcome = await Promise.race([this.exit, killed]);
    clearTimeout(timer);
    if (outcome === 'killed') {
      this.child.kill('SIGKILL');
      throw new Error(`${this.label} did not exit within ${exitWithinMs} ms and was killed.\n${this.describe()}`);
    }
    return outcome;
  }

  /** Kills it if still running (cleanup after a failed test). */
  dispose(): void {
    if (this.exitCode === undefined) this.child.kill('SIGKILL');
  }

  describe(): string {
    return `stdout: ${this.output.stdout}\nstderr: ${this.output.stderr}`;
  }
}

function collect(
  child: ChildProcessWithoutNullStreams,
  onLine?: (line: string) => void,
  onStderr?: () => void,
): { stdout: string; stderr: string } {
  const output = { stdout: '', stderr: '' };
  let partial = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output.stdout += chunk;
    if (onLine === undefined) return;
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') onLine(line);
  });
  child.stderr.on('data', (chunk: string) => {
    output.stderr += chunk;
    onStderr?.();
  });
  return output;
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('close', (code) => resolve(code));
  });
}
