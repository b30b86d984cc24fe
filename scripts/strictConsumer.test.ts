/**
 * The published types as a strict app compiles them: the `file=` examples of chat-ui's README and
 * docs/embedding.md, and a consumer file, type-checked by tsc against the built .d.ts files (the
 * `types` conditions, not the workspace's source) with `strict` and `exactOptionalPropertyTypes`.
 * Under the latter an optional prop typed `prop?: T` refuses an explicit `undefined`, so
 * `activeChatId={chatId}` with `chatId: string | undefined` fails; every optional prop and option
 * is typed `prop?: T | undefined` (docs/packages.md). `pnpm test` builds dist first.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from './packWorkspace';

const run = promisify(execFile);
const tscBin = join(repositoryRoot, 'node_modules/typescript/bin/tsc');

/** The `file=` examples of a page: a block written ```tsx file=<name>. */
async function examplesOf(page: string): Promise<Map<string, string>> {
  const text = await readFile(join(repositoryRoot, page), 'utf8');
  const examples = new Map<string, string>();
  for (const match of text.matchAll(/^```tsx? file=(\S+)\n([\s\S]*?)^```$/gm)) examples.set(match[1]!, match[2]!);
  return examples;
}

/*
 * The consumer: every component and hook of chat-ui must take `undefined` for each optional prop
 * or option (a type error names the exports that do not), and the public options of the client
 * likewise. Explicit `undefined`s as apps write them, from optional values of their own.
 */
const consumer = `
import * as ChatUi from '@confab/chat-ui';
import { AppShell, ChatPage, ConfabProvider, LoginScreen } from '@confab/chat-ui';
import * as Client from '@confab/client';
import { ConfabClient } from '@confab/client';
import type * as Agent from '@confab/client/agent';
import '@confab/chat-ui/theme.css';

type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];
/** true when every optional property of T takes an explicit undefined. */
type TakesUndefined<T> = T extends readonly unknown[] ? true : T extends object ? ({ [K in OptionalKeys<T>]: undefined } extends Pick<T, OptionalKeys<T>> ? true : false) : true;
type EveryParameter<F> = F extends (...parameters: infer P) => unknown ? P[number] : never;
/** Components (capitalised) and hooks (use…): their props and options, not the helpers' data. */
type ComponentOrHook<Name> = Name extends string ? (Name extends Capitalize<Name> ? Name : Name extends \`use\${string}\` ? Name : never) : never;
type Refusing<Module> = {
  [Name in ComponentOrHook<keyof Module>]: false extends TakesUndefined<Exclude<EveryParameter<Module[Name]>, undefined>> ? Name : never;
}[ComponentOrHook<keyof Module>];
/** An error here lists the components and hooks that refuse an explicit undefined. */
export const chatUiExportsRefusingUndefined: { [Name in Refusing<typeof ChatUi>]: 'takes no explicit undefined' } = {};
/** The client's public option types, by name; an error lists those that refuse undefined. */
interface ClientOptionTypes {
  ConfabClientOptions: Client.ConfabClientOptions;
  RealtimeClientOptions: Client.RealtimeClientOptions;
  RealtimeOptions: Client.RealtimeOptions;
  RealtimeTimings: Client.RealtimeTimings;
  ImageProxyAccess: Parameters<typeof Client.withImageProxyAccess>[1];
  RegisterInput: Client.RegisterInput;
  MessagesOptions: Client.MessagesOptions;
  UploadOptions: Client.UploadOptions;
  FileUrlOptions: Client.FileUrlOptions;
  DropsPageOptions: Client.DropsPageOptions;
  CreateChatInput: Client.CreateChatInput;
  ChatPatch: Client.ChatPatch;
  ApiKeysInput: Client.ApiKeysInput;
  ConnectAgentOptions: Agent.ConnectAgentOptions;
}
export const clientOptionTypesRefusingUndefined: { [Name in keyof ClientOptionTypes as false extends TakesUndefined<ClientOptionTypes[Name]> ? Name : never]: 'takes no explicit undefined' } = {};

declare const maybeChatId: string | undefined;
declare const maybeUrl: string | undefined;
const client = new ConfabClient({ baseUrl: maybeUrl, fetch: undefined, realtime: { autoConnect: undefined } });
export const app = (
  <ConfabProvider client={client} theme={undefined} navigate={undefined}>
    <AppShell activeChatId={maybeChatId}>{maybeChatId ? <ChatPage chatId={maybeChatId} locale={undefined} /> : undefined}</AppShell>
    <LoginScreen redirectTo={undefined} />
  </ConfabProvider>
);
`;

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    moduleResolution: 'Bundler',
    jsx: 'react-jsx',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedSideEffectImports: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
  include: ['src'],
};

describe('the published types in a strict app (exactOptionalPropertyTypes)', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'confab-strict-consumer-'));
    // The packages as installed: their manifests' `types` conditions lead to dist/*.d.ts.
    await mkdir(join(directory, 'node_modules/@confab'), { recursive: true });
    await mkdir(join(directory, 'node_modules/@types'), { recursive: true });
    for (const folder of ['client', 'chat-ui']) await symlink(join(repositoryRoot, 'packages', folder), join(directory, 'node_modules/@confab', folder), 'dir');
    for (const name of ['react', 'react-dom', '@types/react', '@types/react-dom']) await symlink(join(repositoryRoot, 'node_modules', name), join(directory, 'node_modules', name), 'dir');
    await mkdir(join(directory, 'src'));
    await writeFile(join(directory, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    await writeFile(join(directory, 'src/consumer.tsx'), consumer);
    for (const page of ['packages/chat-ui/README.md', 'docs/embedding.md']) {
      for (const [file, code] of await examplesOf(page)) await writeFile(join(directory, 'src', `${page.replace(/\W+/g, '-')}-${file}`), code);
    }
  });

  afterAll(async () => {
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  });

  it('compiles the README examples and a consumer without an error', { timeout: 120_000 }, async () => {
    const result = await run(process.execPath, [tscBin, '-p', join(directory, 'tsconfig.json')], { cwd: directory, maxBuffer: 16 * 1024 * 1024 }).then(
      () => '',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    expect(result).toBe('');
  });

  it('has examples to compile', async () => {
    expect([...(await examplesOf('packages/chat-ui/README.md')).keys()].length).toBeGreaterThan(0);
  });
});
