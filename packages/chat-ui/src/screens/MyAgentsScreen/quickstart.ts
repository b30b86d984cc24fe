/**
 * The My Agents quickstart (docs/PRODUCT.md §1: developers create agents, run their code locally
 * and connect it through the SDK): shell commands with this server's URL and the user's names
 * filled in, each with what it prints. They need only Node.js and npm: the CLI is installed from
 * this server (GET /api/packages/confab-cli.tgz, a self-contained tarball), and the project
 * `confab init` writes installs the SDK from the server the CLI signed in to. Kept here, in one
 * place, so the screen, its tests and `pnpm bench:agent-quickstart` read the same text.
 */
import { usernameFromName } from '@confab/client/rules';

/** The folder `init` creates in the quickstart. */
export const starterFolder = 'my-agent';

export interface QuickstartInput {
  /** This server's URL, e.g. https://confab.example.com. */
  serverUrl: string;
  /** The signed-in user's username. */
  username: string;
  /** An agent of theirs to run, when they have one; otherwise the steps create one. */
  agentUsername?: string | null | undefined;
}

export interface QuickstartStep {
  title: string;
  /** One line for a shell, to copy as it is. */
  command: string;
  /** What the command prints when it worked (its telling line, not every line). */
  output: string;
  /** What to do when it fails in a way that is the machine's, not Confab's. */
  hint?: string;
}

/** Where the key copied from this page goes: `confab run` reads it from this variable. */
export const agentKeyVariable = 'CONFAB_AGENT_KEY';

/** The CLI's tarball on this server: always the server's own version. */
export function cliTarballUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/api/packages/confab-cli.tgz`;
}

/**
 * The agent the steps create: named after the person (ann → ann_bot), so it does not collide
 * with another person's quickstart agent on the same server.
 */
export function quickstartAgentUsername(username: string): string {
  return `${usernameFromName(username).slice(0, 26)}_bot`;
}

/**
 * The steps, as packages/cli names its commands and words its output: `agents create` saves the
 * new key for `run`; an agent created on this page instead passes the key it showed through
 * CONFAB_AGENT_KEY.
 */
export function quickstartSteps({ serverUrl, username, agentUsername }: QuickstartInput): QuickstartStep[] {
  const server = serverUrl.replace(/\/+$/, '');
  const agent = agentUsername ?? quickstartAgentUsername(username);
  const steps: QuickstartStep[] = [
    {
      title: 'Install the confab command from this server (Node.js 20 or later)',
      command: `npm install -g ${cliTarballUrl(server)}`,
      output: 'added 1 package',
      // Node.js from a system package installs global packages into /usr: npm needs a folder of the user's own.
      hint: 'EACCES? Your npm installs into a system folder: run npm config set prefix ~/.npm-global, add ~/.npm-global/bin to your PATH, and try again.',
    },
    {
      title: 'Sign in: it asks for your password (a script can set CONFAB_PASSWORD instead)',
      command: `confab login --server ${server} --username ${username}`,
      output: `Logged in as ${username} on ${server}`,
    },
  ];
  if (!agentUsername) {
    steps.push({
      title: 'Create an agent: its key is saved for confab run',
      command: `confab agents create "My Agent" --username ${agent}`,
      output: `Created @${agent} (My Agent).`,
    });
  }
  steps.push({
    title: 'Start from the agent template: npm installs its SDK from this server',
    command: `confab init ${starterFolder} --agent ${agent} && cd ${starterFolder} && npm install`,
    output: `Created an agent project in ${starterFolder}`,
  });
  const connected = `Connected as @${agent}. Mention it in a chat; Ctrl+C stops.`;
  steps.push(
    agentUsername
      ? { title: `Run it with the key shown here: @${agent} answers mentions while this runs`, command: `${agentKeyVariable}=<your key> confab run --agent ${agent}`, output: connected }
      : { title: `Run it: @${agent} answers mentions while this runs`, command: `confab run --agent ${agent}`, output: connected },
  );
  return steps;
}
