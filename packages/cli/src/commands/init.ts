import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { Command } from 'commander';
import { projectFiles } from '../init/projectFiles';
import { parseAgentUsername } from '../parse';
import { versions } from '../versions';
import { CliError, print, runAction } from '../output';

/** `confab init [dir]`: a ready agent project; refuses a non-empty directory unless --force. */
export function initCommand(): Command {
  return new Command('init')
    .description('create an agent project: agent.mjs, its test, package.json and a README')
    .argument('[dir]', 'where (created if missing)', '.')
    .option('-a, --agent <username>', 'the agent `npm start` runs as')
    .option('-f, --force', 'write into a non-empty directory (overwrites the files it creates)')
    .option('--json', 'print JSON')
    .action(async (dirArgument: string, options: { agent?: string; force?: boolean; json?: boolean }) => {
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
        const files = projectFiles({
          name: packageName(basename(dir)),
          agent,
          clientRange: `^${versions.client}`,
          cliRange: `^${versions.cli}`,
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

/** An npm package name from a directory name: lower-case, URL-safe, never empty. */
function packageName(directory: string): string {
  const name = directory
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '');
  return name === '' ? 'confab-agent' : name.slice(0, 214);
}
