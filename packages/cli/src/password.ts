/**
 * Where `confab login` gets the password, in this order: --password-stdin (all of stdin, as
 * `docker login` reads it, so it never sits in the shell history or the process list), --password,
 * CONFAB_PASSWORD, else a hidden prompt when stdin is a terminal. Piped stdin without
 * --password-stdin is refused rather than read: a script that forgot the flag should fail, not hang.
 */
import { CliError } from './output';

export interface PasswordOptions {
  password?: string;
  passwordStdin?: boolean;
}

export async function readPassword(options: PasswordOptions, prompt: string): Promise<string> {
  if (options.passwordStdin) {
    if (options.password !== undefined) throw new CliError('Give the password one way: --password or --password-stdin, not both.');
    // One trailing line break is the `echo`'s, not the password's.
    const password = (await readAllStdin()).replace(/\r?\n$/, '');
    if (password === '') throw new CliError('--password-stdin read an empty password: pipe it in, e.g. printf %s "$PASSWORD" | confab login …');
    return password;
  }
  if (options.password !== undefined) return options.password;
  const fromEnvironment = process.env.CONFAB_PASSWORD;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  if (!process.stdin.isTTY) {
    throw new CliError('No password given. Pipe it in with --password-stdin, set CONFAB_PASSWORD, or run `confab login` in a terminal to be asked for it.');
  }
  return promptHidden(prompt);
}

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Asks on the terminal with echo off (raw mode): nothing typed is shown, not even as stars, so
 * its length does not show either. Enter ends it, Backspace deletes, Ctrl+C or Ctrl+D on an empty
 * line gives up.
 */
function promptHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  return new Promise<string>((resolve, reject) => {
    let typed = '';
    const finish = (outcome: () => void) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      outcome();
    };
    const onData = (chunk: Buffer | string) => {
      for (const character of chunk.toString()) {
        if (character === '\r' || character === '\n') {
          finish(() => resolve(typed));
          return;
        }
        if (character === '\u0003' || (character === '\u0004' && typed === '')) {
          finish(() => reject(new CliError('Login cancelled.')));
          return;
        }
        if (character === '\u007f' || character === '\b') typed = [...typed].slice(0, -1).join('');
        else if (character >= ' ') typed += character;
      }
    };
    // Echo off before the prompt shows: what is typed the moment it appears must not be echoed.
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.resume();
    process.stderr.write(prompt);
  });
}
