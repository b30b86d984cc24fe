#!/usr/bin/env node
// `pnpm bench:agents`: developer agents under load (docs/CONTRACTS.md, Agents). One confab-server
// (SQLite, from source) in a child process on 127.0.0.1; 100 developer agents connected through
// the SDK (`connectAgent` of @confab/client/agent) and 50 chats of 5 people, each person with a
// socket joined to each of their chats. Two phases at the same load, each message from a random
// person of a random chat:
//   plain:    2,000 messages a minute mentioning nobody (as many as questions and answers below);
//             p99 from a person's send to the other people's screens.
//   mentions: 1,000 a minute, each naming one of the chat's two agents; the handler answers at
//             once. p99 from the send to the agent's handler, and from the handler's reply to the
//             people's screens.
// Printed as ratios against the plain fan-out of the same run (target ≤ 1.5× each), with every
// mention delivered exactly once. Progress on stderr, the report on stdout; exit 0 only when every
// target holds. Bounded: fixed counts, a hard timeout, the child stopped on every exit path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
// The SDK from source, as an agent developer's project would import @confab/client/agent.
import { connectAgent } from '../../packages/client/src/agent/index.ts';
import { startServerChild } from './child.mjs';
import { closeClients, connectClients } from './clients.mjs';
import { boundedRun } from './bounded.mjs';
import { parseBenchOptions } from './options.mjs';
import { formatTable, percentile } from './stats.mjs';

const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const { WebSocket } = require('ws');

const options = parseBenchOptions(process.argv.slice(2), {
  agents: 100,
  chats: 50,
  people: 50, // each chat has 5 of them (consecutive, wrapping), so each person is in 5 chats
  perMinute: 1000,
  seconds: 30, // per phase
  timeoutMs: 10 * 60_000,
});
const peoplePerChat = 5;
const target = 1.5;
const log = (text) => console.error(`[bench:agents] ${text}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { cleanups, finish } = boundedRun({ timeoutMs: options.timeoutMs, log });

/** The record API and /api/agents, as any client calls them. */
function api(baseUrl) {
  return async (method, path, body, token) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** People, chats (developer agents allowed) and agents with their keys. */
async function setUp(baseUrl) {
  const call = api(baseUrl);
  const run = Date.now().toString(36);
  const password = 'bench password 1';
  const people = [];
  // Sequential: password hashing is CPU-bound, parallel sign-ups would only queue.
  for (let index = 0; index < options.people; index += 1) {
    const username = `p_${run}_${index}`;
    await call('POST', '/api/collections/users/records', { username, email: `${username}@example.com`, password, passwordConfirm: password });
    const auth = await call('POST', '/api/collections/users/auth-with-password', { identity: username, password });
    people.push({ id: auth.record.id, token: auth.token });
  }
  const chats = [];
  for (let index = 0; index < options.chats; index += 1) {
    const members = Array.from({ length: peoplePerChat }, (_, offset) => people[(index + offset) % people.length]);
    const chat = await call('POST', '/api/collections/chats/records', { name: `Load ${index}`, participants: members.map((person) => person.id) }, members[0].token);
    await call('PATCH', `/api/collections/chats/records/${chat.id}`, { agent_permissions: { confab_agents: false, developer_agents: true } }, members[0].token);
    chats.push({ id: chat.id, members, agents: [] });
  }
  // Agents spread over owners (a person may have 25); agent j answers in chat j mod chats.
  const agents = [];
  for (let index = 0; index < options.agents; index += 1) {
    const owner = people[Math.floor(index / 25) % people.length];
    const answer = await call('POST', '/api/agents', { name: `Load agent ${index}` }, owner.token);
    const agent = { username: answer.agent.username, apiKey: answer.api_key, chat: chats[index % chats.length] };
    agent.chat.agents.push(agent);
    agents.push(agent);
  }
  const config = await call('GET', '/api/config');
  return { people, chats, agents, websocketUrl: config.websocket_url };
}

/**
 * One phase: `perMinute` messages spread evenly over `seconds`, each from a random person of a
 * random chat; with `mentions`, naming one of that chat's agents. Resolves once every expected
 * delivery arrived (or rejects after a grace period), with the latencies.
 */
async function phase({ label, mentions, chats, personSockets, handled, seconds = options.seconds, perMinute = options.perMinute }) {
  const count = Math.round((perMinute * seconds) / 60);
  const gapMs = 60_000 / perMinute;
  const sentAt = new Map();
  const repliedAt = new Map();
  const toScreens = [];
  const replyToScreens = [];
  const toAgent = [];
  const expected = count * (peoplePerChat - 1) + (mentions ? count * peoplePerChat : 0);
  let seen = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const onFrame = (own) => (data) => {
    const text = data.toString();
    if (!text.startsWith('{"type":"new_message"')) return;
    const { message } = JSON.parse(text);
    const now = performance.now();
    if (message.content.startsWith(`${label}:a:`)) {
      const id = message.content.slice(`${label}:a:`.length);
      const replied = repliedAt.get(id);
      if (replied !== undefined) replyToScreens.push(now - replied);
    } else if (message.content.includes(`${label}:q:`) && message.author_id !== own) {
      // The sender's own echo is not a delivery to someone else's screen.
      const id = message.content.slice(message.content.indexOf(`${label}:q:`) + `${label}:q:`.length);
      const sent = sentAt.get(id);
      if (sent !== undefined) toScreens.push(now - sent);
    } else return;
    seen += 1;
    if (seen === expected) resolveDone();
  };
  for (const chat of chats) {
    for (const [index, socket] of personSockets.get(chat.id).entries()) socket.on('message', onFrame(chat.members[index].id));
  }
  handled.current = (mention, reply) => {
    const id = mention.content.slice(mention.content.indexOf(`${label}:q:`) + `${label}:q:`.length);
    const sent = sentAt.get(id);
    if (sent !== undefined) toAgent.push(performance.now() - sent);
    handled.counts.set(id, (handled.counts.get(id) ?? 0) + 1);
    repliedAt.set(id, performance.now());
    return reply.send(`${label}:a:${id}`);
  };
  const startedAt = performance.now();
  for (let index = 0; index < count; index += 1) {
    const chat = chats[Math.floor(Math.random() * chats.length)];
    const from = Math.floor(Math.random() * peoplePerChat);
    const id = String(index);
    const agent = chat.agents[Math.floor(Math.random() * chat.agents.length)];
    const content = mentions ? `@${agent.username} ${label}:q:${id}` : `${label}:q:${id}`;
    sentAt.set(id, performance.now());
    personSockets.get(chat.id)[from].send(JSON.stringify({ type: 'send_message', chat_id: chat.id, content, client_id: `${label}-${id}` }));
    // Paced against the clock, so a slow tick does not stretch the phase.
    const next = startedAt + (index + 1) * gapMs;
    await sleep(Math.max(0, next - performance.now()));
  }
  const finished = await Promise.race([done.then(() => true), sleep(30_000).then(() => false)]);
  for (const sockets of personSockets.values()) for (const socket of sockets) socket.removeAllListeners('message');
  if (!finished) log(`${label}: ${seen} of ${expected} deliveries arrived within 30 s of the last send`);
  const sorted = (values) => values.sort((a, b) => a - b);
  return { label, sent: count, expected, seen, toScreens: sorted(toScreens), toAgent: sorted(toAgent), replyToScreens: sorted(replyToScreens) };
}

async function run() {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-bench-agents-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const server = await startServerChild('confab', {
    BENCH_DATA_DIR: dataDir,
    // Every account and agent comes from one address and owner: lift the hourly creation limits for this run.
    CONFAB_SIGNUPS_PER_IP_PER_HOUR: '1000',
    CONFAB_AGENTS_PER_USER_PER_HOUR: '1000',
  });
  cleanups.push(server.stop);
  log(`server at ${server.url}; ${options.people} people, ${options.chats} chats, ${options.agents} agents`);
  const { chats, agents, websocketUrl } = await setUp(server.url);

  const personSockets = new Map();
  for (const chat of chats) {
    const sockets = await connectClients({ url: websocketUrl, tokens: chat.members.map((person) => person.token), chatId: chat.id, count: peoplePerChat });
    personSockets.set(chat.id, sockets);
  }
  cleanups.push(() => closeClients([...personSockets.values()].flat()));
  const handled = { current: null, counts: new Map() };
  const connections = agents.map((agent) => {
    const connection = connectAgent({ url: server.url, apiKey: agent.apiKey, WebSocket });
    connection.onMention((mention, reply) => handled.current?.(mention, reply));
    return connection;
  });
  cleanups.push(async () => connections.forEach((connection) => connection.close()));
  await Promise.all(connections.map((connection) => connection.ready));
  log(`${personSockets.size * peoplePerChat} people's sockets and ${connections.length} agents connected`);

  // Unmeasured warm-up of both paths (JIT, statement caches, the router).
  await phase({ label: 'warmup1', mentions: false, chats, personSockets, handled, seconds: 3 });
  await phase({ label: 'warmup2', mentions: true, chats, personSockets, handled, seconds: 3 });
  handled.counts.clear();

  // The same load as the mentions phase: there every question brings an answer, so plain
  // messages go at twice the pace (as many stored and fanned out per second).
  log(`plain phase: ${2 * options.perMinute}/min for ${options.seconds} s`);
  const plain = await phase({ label: 'plain', mentions: false, chats, personSockets, handled, perMinute: 2 * options.perMinute });
  log(`mentions phase: ${options.perMinute}/min for ${options.seconds} s`);
  const mentioned = await phase({ label: 'mention', mentions: true, chats, personSockets, handled });

  const counts = [...handled.counts.values()];
  const deliveredOnce = counts.length === mentioned.sent && counts.every((count) => count === 1);
  const p99 = (values) => percentile(values, 0.99);
  const row = (name, values) => ({ path: name, samples: String(values.length), 'p50 ms': percentile(values, 0.5).toFixed(2), 'p99 ms': p99(values).toFixed(2) });
  console.log(formatTable([
    row('plain: send → people', plain.toScreens),
    row('mention: send → people', mentioned.toScreens),
    row('mention: send → agent handler', mentioned.toAgent),
    row('reply: agent → people', mentioned.replyToScreens),
  ]));
  const ratios = [
    ['send → agent handler', p99(mentioned.toAgent) / p99(plain.toScreens)],
    ['agent reply → people', p99(mentioned.replyToScreens) / p99(plain.toScreens)],
  ];
  console.log(`\nmentions handled: ${counts.length} of ${mentioned.sent}, each once: ${deliveredOnce ? 'yes' : 'NO'}`);
  console.log(`deliveries: plain ${plain.seen}/${plain.expected}, mentions ${mentioned.seen}/${mentioned.expected}`);
  for (const [name, ratio] of ratios) console.log(`p99 ${name} / plain fan-out p99: ${ratio.toFixed(2)} (target ≤ ${target}) ${ratio <= target ? 'PASS' : 'FAIL'}`);
  const complete = plain.seen === plain.expected && mentioned.seen === mentioned.expected;
  return deliveredOnce && complete && ratios.every(([, ratio]) => ratio <= target) ? 0 : 1;
}

finish(run());
