import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { Command } from 'commander';
import { projectFiles } from '../init/projectFiles';
import { parseAgentUsername, parseServerUrl } from '../parse';
import { readSession } from '../session';
import { versions } from '../versions';
import { CliError, note, print, runAction } from '../output';

/**
 * `confab init [dir]`: a ready agent project; refuses a non-empty directory unless --force. Its
 * @confab/* dependencies are the tarballs the Confab server serves (--server, else CONFAB_SERVER,
 * else the signed-in session's), so `npm install` needs no registry holding them.
 */
export function initCommand(): Command {
  return new Command('init')
    .description('create an agent project: agent.mjs, its test, package.json and a README')
    .argument('[dir]', 'where (created if missing)', '.')
    .option('-a, --agent <username>', 'the agent `npm start` runs as')
    .option('-s, --server <url>', "the Confab server npm installs the SDK and CLI from (default: CONFAB_SERVER, else your session's)")
    .option('-f, --force', 'write into a non-empty directory (overwrites the files it creates)')
    .option('--json', 'print JSON')
    .action(async (dirArgument: string, options: { agent?: string; server?: string; force?: boolean; json?: boolean }) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const agent = options.agent === undefined ? null : parseAgentUsername(options.agent);
        const dir = resolve(dirArgument);
        const existing = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return [];
          throw new CliError(`Cannot use ${dirArgument}: ${error.message}`);
        });
        if (existing.length > 0 && !options.force) {
          throw new CliError(`${dirArgument} is not empty. Choose an empty directory, or pass --force to write the project files into it.`);
        }
        const server = await packageServer(options.server);
        if (server === null) note('Not signed in: the project depends on @confab/* from the npm registry. Run `confab login` (or pass --server) first to install them from your Confab server.');
        const files = projectFiles({
          name: packageName(basename(dir)),
          agent,
          clientRange: server === null ? `^${versions.client}` : `${server}/api/packages/confab-client-${versions.client}.tgz`,
          cliRange: server === null ? `^${versions.cli}` : `${server}/api/packages/confab-cli-${versions.cli}.tgz`,
        });
        await mkdir(dir, { recursive: true });
        for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
        const shown = relative(process.cwd(), dir) || '.';
        const cd = shown === '.' ? '' : `cd ${shown} && `;
        print(
          json,
          { dir, files: Object.keys(files) },
          [`Created an agent project in ${shown}: ${Object.keys(files).join(', ')}`, '', `  ${cd}npm install && npm test && npm start`].join('\n'),
        );
      });
    });
}

/** The server whose tarballs the project installs (GET /api/packages/…), or null for the registry. */
async function packageServer(option: string | undefined): Promise<string | null> {
  if (option !== undefined) return parseServerUrl(option);
  const fromEnvironment = process.env['CONFAB_SERVER'];
  if (fromEnvironment !== undefined && fromEnvironment.trim() !== '') return parseServerUrl(fromEnvironment);
  return (await readSession())?.server ?? null;
}

/** An npm package name from a directory name: lower-case, URL-safe, never empty. */
function packageName(directory: string): string {
  const name = directory
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '');
  return name === '' ? 'confab-agent' : name.slice(0, 214);
}
