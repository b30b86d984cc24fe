import type { Mention } from '@confab/client/protocol';
import { addKeyHint, AiError, type AiGateway, type ChatTurn } from '../ai/types';
import type { HostedAgentHandler } from '../transports/inProcess';

/** Who the persona is: an admin-made confab agent, or a built-in one without its own tools yet. */
export interface Persona {
  username: string;
  name: string;
  /** The admin's description: the persona's system prompt. */
  description: string;
  /** For built-in agents whose behaviour is still to come: what they will do, said when asked. */
  comingSoon?: string;
}

export interface PersonaDependencies {
  gateway: AiGateway;
  /** Tells the invoker alone (an `agent_notice` to their sockets) which of their keys failed. */
  noticeInvoker(mention: Mention, text: string): Promise<void>;
  onError(error: unknown): void;
}

/** The system prompt: the description, then where the persona is and what it answers. */
export function personaSystemPrompt(persona: Persona, mention: Mention): string {
  const who = persona.description.trim() === '' ? `You are ${persona.name}, an assistant.` : persona.description.trim();
  const lines = [
    who,
    '',
    `You are @${persona.username} in the Confab group chat "${mention.chat_name}". Earlier messages are given as "name: text".`,
    'Answer the last message, which mentions you, briefly and in Markdown.',
  ];
  if (persona.comingSoon !== undefined) lines.push(`Your own tools are not ready yet: ${persona.comingSoon} If asked to use them, say they are coming soon and help in words meanwhile.`);
  return lines.join('\n');
}

/** The chat so far as turns: this agent's messages as the assistant's, everyone else's as named user turns. */
export function personaTurns(persona: Persona, mention: Mention): ChatTurn[] {
  const turns: ChatTurn[] = mention.context.map((message) =>
    message.author_username === persona.username
      ? { role: 'assistant', content: message.content }
      : { role: 'user', content: `${message.author_name || message.author_username}: ${message.content}` },
  );
  turns.push({ role: 'user', content: `${mention.author_name || mention.author_username}: ${mention.content}` });
  return turns;
}

/**
 * A persona answers a mention through the AI gateway, its description as the system prompt and
 * the mention's recent context as the conversation, streamed into the chat. With no key it says
 * so (with the My Profile hint). A provider failure keeps what was streamed, marked cut off, and
 * puts the safe text in the chat as a message of its own; when the key that failed is the
 * invoker's own, the invoker alone also gets the owner message as an `agent_notice` (reason
 * `not_available`). No key material is ever written anywhere.
 */
export function personaHandler(persona: Persona, dependencies: PersonaDependencies): HostedAgentHandler {
  return async (mention, reply) => {
    const { gateway } = dependencies;
    if (!(await gateway.available(mention.author_id))) {
      const intro = persona.comingSoon === undefined ? 'I need an AI key to answer.' : `${persona.comingSoon} Meanwhile I can only answer in words, and for that I need an AI key.`;
      await reply.send(`${intro} ${addKeyHint}`);
      return;
    }
    reply.status('is thinking…');
    const stream = reply.stream();
    try {
      const answer = await gateway.complete({
        invokerId: mention.author_id,
        system: personaSystemPrompt(persona, mention),
        messages: personaTurns(persona, mention),
        onText: (delta) => stream.write(delta),
      });
      const stored = await stream.end();
      if (stored === undefined && answer.text.trim() === '') await reply.send('I have no answer to that.');
    } catch (error) {
      // What arrived before the failure stays, marked cut off (nothing stays when nothing came).
      await stream.end({ cutOff: true }).catch(dependencies.onError);
      if (!(error instanceof AiError)) throw error;
      await reply.send(error.message);
      if (error.keyOwner === 'user') await dependencies.noticeInvoker(mention, error.ownerMessage).catch(dependencies.onError);
    }
  };
}
