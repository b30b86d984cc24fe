/**
 * The My Agents quickstart (docs/PRODUCT.md §1: developers create agents, run their code locally
 * and connect it through the SDK): the CLI commands with this server's URL and the user's names
 * filled in. Kept here, in one place, so the screen and its tests read the same text.
 */

/** How the commands invoke the CLI: npx needs no global install. */
export const cliCommand = 'npx @confab/cli';

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
  command: string;
}

/** Where the key copied from this page goes: `confab run` reads it from this variable. */
export const agentKeyVariable = 'CONFAB_AGENT_KEY';

/**
 * The steps, as packages/cli names its commands: `agents create` saves the new key for `run`; an
 * agent created on this page instead passes the key it showed through CONFAB_AGENT_KEY.
 */
export function quickstartSteps({ serverUrl, username, agentUsername }: QuickstartInput): QuickstartStep[] {
  const agent = agentUsername ?? 'my_agent';
  const steps: QuickstartStep[] = [{ title: 'Sign in from your terminal', command: `${cliCommand} login --server ${serverUrl} --username ${username}` }];
  if (!agentUsername) steps.push({ title: 'Create an agent (its key is saved for run)', command: `${cliCommand} agents create "My Agent"` });
  steps.push({
    title: 'Start from the agent template',
    command: `${cliCommand} init ${starterFolder} --agent ${agent} && cd ${starterFolder} && npm install`,
  });
  steps.push(
    agentUsername
      ? { title: `Run it with the key shown here: @${agent} answers mentions while this runs`, command: `${agentKeyVariable}=<your key> ${cliCommand} run --agent ${agent}` }
      : { title: `Run it: @${agent} answers mentions while this runs`, command: `${cliCommand} run --agent ${agent}` },
  );
  return steps;
}
