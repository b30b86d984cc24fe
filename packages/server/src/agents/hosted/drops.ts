import type { Mention, WireDrop, WireMessage } from '@confab/client/protocol';
import { dropLimits } from '@confab/client/protocol';
import { countLabel } from '@confab/client/rules';
import { ConfabServerError } from '../../errors';
import type { Services } from '../../services/index';
import { addKeyHint, AiError, type AiGateway } from '../ai/types';
import type { HostedAgentHandler, InProcessReply } from '../transports/inProcess';

/** How many of the discussion's messages a keyless drop lists. */
const extractiveMaximum = 10;
const pointMaximum = 180;

export const dropsAgentHelp = [
  'I turn this discussion into a **drop**, a titled post on the Drops feed.',
  '',
  '- `@drops create a guide about our discussion` (or a summary, a FAQ, notes…) publishes one from the recent messages',
  '- `@drops list` shows this chat’s drops',
  '- `@drops help` shows this',
].join('\n');

/** What the model is asked to answer: one JSON object. */
const composeInstructions = [
  'You write a drop: a titled post that captures a group chat discussion for people who were not there.',
  'Answer with one JSON object only, no prose around it: {"title": string (at most 90 characters), "content": string (markdown, at most 1800 characters), "tags": string[] (at most 5 single words)}.',
  'Follow the request (a guide, a summary, a FAQ…). Use only what the messages say.',
].join(' ');

function clip(text: string, maximum: number): string {
  return text.length <= maximum ? text : `${text.slice(0, maximum - 1).trimEnd()}…`;
}

/** The request after '@drops': 'create a guide about…', 'list', 'help'. */
export function dropsRequestOf(content: string): string {
  return content.replace(/(?<![\w@.])@drops\b/gi, '').trim();
}

/** People's messages worth keeping: not commands to agents, not agents' own replies. */
function discussionOf(context: readonly WireMessage[]): WireMessage[] {
  return context.filter((message) => !message.is_agent && message.content.trim() !== '' && !/^\s*@\w+\s*$/.test(message.content));
}

/** A drop with no model: the chat's name and date as title, its key messages as a list. */
export function extractiveDrop(mention: Pick<Mention, 'chat_name' | 'created_at' | 'context'>): { title: string; content: string } {
  const date = mention.created_at.slice(0, 10);
  const points = discussionOf(mention.context)
    .slice(-extractiveMaximum)
    .map((message) => `- **${message.author_name}:** ${clip(message.content.replace(/\s+/g, ' ').trim(), pointMaximum)}`);
  const body = points.length === 0 ? ['Nothing has been said here yet.'] : points;
  const content = clip([`Key points from the discussion in ${mention.chat_name} on ${date}:`, '', ...body].join('\n'), dropLimits.contentMaxLength);
  return { title: clip(`${mention.chat_name} — ${date}`, dropLimits.titleMaxLength), content };
}

/** The model's JSON answer as a drop, or undefined when it is not usable. */
export function parseComposed(text: string): { title: string; content: string } | undefined {
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const title = typeof record['title'] === 'string' ? record['title'].trim() : '';
  const body = typeof record['content'] === 'string' ? record['content'].trim() : '';
  if (title === '' || body === '') return undefined;
  const tags = Array.isArray(record['tags']) ? record['tags'].filter((tag): tag is string => typeof tag === 'string') : [];
  const hashtags = tags
    .map((tag) => tag.replace(/[^\p{L}\p{N}_-]/gu, ''))
    .filter((tag) => tag !== '' && !body.toLowerCase().includes(`#${tag.toLowerCase()}`))
    .slice(0, 5)
    .map((tag) => `#${tag}`);
  const content = hashtags.length === 0 ? body : `${body}\n\n${hashtags.join(' ')}`;
  return { title: clip(title, dropLimits.titleMaxLength), content: clip(content, dropLimits.contentMaxLength) };
}

function linkTo(drop: Pick<WireDrop, 'title' | 'slug'>): string {
  return `[${drop.title.replace(/[[\]]/g, '')}](/drops/${drop.slug})`;
}

/**
 * @drops: publishes a drop from the discussion, acting for the person who asked (it
 * may publish only where they may), with their key through the AI gateway, or extractively with
 * none; also lists this chat's drops and explains itself.
 */
export function createDropsAgent(services: Services, ai: AiGateway | undefined): HostedAgentHandler {
  return async (mention: Mention, reply: InProcessReply) => {
    const request = dropsRequestOf(mention.content);
    const asker = await services.accounts.findUser(mention.author_id);
    if (asker === undefined) return void (await reply.send('I could not tell who asked; please ask again.'));
    const auth = { user: asker, ip: '' };
    if (/^(help|\?)?$/i.test(request)) return void (await reply.send(dropsAgentHelp));
    if (/^list\b/i.test(request)) return listDrops(services, auth, mention, reply);
    reply.status('is writing a drop…');
    let draft = extractiveDrop(mention);
    let note = `I had no AI key, so this drop lists the discussion’s key messages. ${addKeyHint}`;
    if (ai !== undefined && (await ai.available(asker.id))) {
      try {
        const conversation = discussionOf(mention.context)
          .map((message) => `${message.author_name}: ${message.content}`)
          .join('\n');
        const answer = await ai.complete({
          invokerId: asker.id,
          system: composeInstructions,
          messages: [{ role: 'user', content: `Chat "${mention.chat_name}".\nRequest: ${request}\n\nMessages:\n${conversation}` }],
        });
        const composed = parseComposed(answer.text);
        if (composed !== undefined) {
          draft = composed;
          note = '';
        } else {
          note = 'The model’s answer was not a usable drop, so this one lists the discussion’s key messages.';
        }
      } catch (error) {
        if (!(error instanceof AiError)) throw error;
        note = `${error.message} This drop lists the discussion’s key messages instead.`;
      }
    }
    try {
      const drop = await services.drops.create(auth, { chat_id: mention.chat_id, title: draft.title, content: draft.content });
      await reply.send([`Published ${linkTo(drop)}.`, note].filter((line) => line !== '').join('\n\n'));
    } catch (error) {
      if (error instanceof ConfabServerError && error.code === 'notFound') {
        return void (await reply.send('I can publish a drop only from a chat you are in.'));
      }
      if (error instanceof ConfabServerError) return void (await reply.send(`I could not publish that drop: ${error.message}`));
      throw error;
    }
    return undefined;
  };
}

async function listDrops(services: Services, auth: { user: NonNullable<Awaited<ReturnType<Services['accounts']['findUser']>>>; ip: string }, mention: Mention, reply: InProcessReply): Promise<void> {
  try {
    const { drops } = await services.drops.chatDrops(auth, mention.chat_id);
    if (drops.length === 0) {
      await reply.send('No drops yet. Say `@drops create a guide about our discussion` to publish the first one.');
      return;
    }
    const lines = drops.slice(0, 20).map((drop) => `- ${linkTo(drop)} · ${countLabel(drop.like_count, 'like')} · ${drop.published_at.slice(0, 10)}`);
    await reply.send([`Drops of ${mention.chat_name}:`, '', ...lines].join('\n'));
  } catch (error) {
    if (error instanceof ConfabServerError) return void (await reply.send('No drops yet.'));
    throw error;
  }
}
