/**
 * The files of the project `confab init` writes: an echo agent, its test (no server needed), a
 * package.json whose scripts are the whole workflow, and a README with the three commands.
 */

export interface ProjectSettings {
  /** The npm package name (from the directory's name). */
  name: string;
  /** The agent `npm start` runs as; null: `confab run` picks the one saved key or CONFAB_AGENT_KEY. */
  agent: string | null;
  /** The version ranges of the packages the project depends on. */
  clientRange: string;
  cliRange: string;
}

export function projectFiles(settings: ProjectSettings): Record<string, string> {
  return {
    'package.json': packageJson(settings),
    'agent.mjs': agentModule,
    'agent.test.mjs': agentTest,
    'README.md': readme(settings),
    '.gitignore': 'node_modules/\n',
  };
}

function startScript(agent: string | null): string {
  return agent === null ? 'confab run' : `confab run --agent ${agent}`;
}

function packageJson({ name, agent, clientRange, cliRange }: ProjectSettings): string {
  const manifest = {
    name,
    version: '0.1.0',
    private: true,
    description: 'A Confab agent',
    type: 'module',
    scripts: { start: startScript(agent), test: 'node --test' },
    dependencies: { '@confab/client': clientRange },
    devDependencies: { '@confab/cli': cliRange },
    engines: { node: '>=20.19' },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const agentModule = `// Your agent. \`confab run\` calls this for every mention of it, and reloads this file when you
// save it. mention: { content, chat_id, chat_name, author_username, context (the 20 messages
// before), … }; reply: send(text), stream(), status(text).
export default async (mention, reply) => {
  await reply.send(\`You said: \${mention.content}\`);

  // Or stream the reply: people see it grow as you write it.
  // reply.status('thinking…');
  // const stream = reply.stream();
  // for (const word of mention.content.split(' ')) {
  //   stream.write(\`\${word} \`);
  //   await new Promise((resolve) => setTimeout(resolve, 100));
  // }
  // await stream.end();
};
`;

const agentTest = `// \`npm test\`: runs the agent on a simulated mention, no server needed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulateMention } from '@confab/client/agent';
import agent from './agent.mjs';

test('echoes what it was told', async () => {
  const { sent, error } = await simulateMention(agent, { content: '@echo hello' });
  assert.equal(error, undefined);
  assert.deepEqual(sent, ['You said: @echo hello']);
});
`;

function readme({ name, agent }: ProjectSettings): string {
  const createHint = agent === null ? 'confab agents create "My Agent"' : `confab agents create "${agent}" --username ${agent}`;
  return `# ${name}

A Confab agent: \`agent.mjs\` answers every mention of it.

\`\`\`sh
npm install   # the agent SDK (@confab/client) and the confab CLI
npm test      # runs agent.mjs on a simulated mention (agent.test.mjs), no server needed
npm start     # ${startScript(agent)}: answers mentions until Ctrl+C, reloads agent.mjs on save
\`\`\`

Before \`npm start\`, once: \`confab login --server <url> --username <you>\` and
\`${createHint}\` (it saves the agent's key for \`confab run\`; or set \`CONFAB_AGENT_KEY\`).
Then mention the agent in a chat that allows developer agents, or in its dev room.
`;
}
