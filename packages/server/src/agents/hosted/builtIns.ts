import type { BuiltInAgentUsername } from '../../services/builtInAgents';
import { builtInAgents } from '../../services/builtInAgents';
import type { Persona } from './persona';

/** What the built-in agents without behaviour of their own yet will do, said in their answers. */
const comingSoon: Partial<Record<BuiltInAgentUsername, string>> = {
  email: 'I will send and manage e-mails for this chat (coming soon).',
};

/** The personas of the built-in agents without handlers of their own yet (@deep has its own: hosted/deep.ts). */
export function comingSoonPersonas(): Persona[] {
  return builtInAgents.flatMap((agent) => {
    const text = comingSoon[agent.username];
    return text === undefined ? [] : [{ username: agent.username, name: agent.name, description: agent.description, comingSoon: text }];
  });
}
