import type { BuiltInAgentUsername } from '../../services/builtInAgents';
import { builtInAgents } from '../../services/builtInAgents';
import type { Persona } from './persona';

/** What the built-in agents without behaviour yet (issue 12) will do, said in their answers. */
const comingSoon: Partial<Record<BuiltInAgentUsername, string>> = {
  email: 'I will send and manage e-mails for this chat (coming soon).',
  deep: 'I will do deep research on the web and report with sources (coming soon).',
  browse: 'I will browse and scrape websites for this chat (coming soon).',
};

/** The personas of @email, @deep and @browse until their own handlers arrive. */
export function comingSoonPersonas(): Persona[] {
  return builtInAgents.flatMap((agent) => {
    const text = comingSoon[agent.username];
    return text === undefined ? [] : [{ username: agent.username, name: agent.name, description: agent.description, comingSoon: text }];
  });
}
