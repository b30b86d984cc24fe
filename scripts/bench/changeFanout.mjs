#!/usr/bin/env node
// `pnpm bench:fanout`: does a reaction, or an edit, reach 1,000 joined clients as fast as a new
// message does? (docs/CONTRACTS.md, Reactions; target ≥ 0.8×.) One confab-server from source on
// 127.0.0.1 (SQLite, temp dir), N clients joined to one chat; three phases of the same number of
// events, each sent as fast as a window of in-flight events allows (the sender's own copy frees a
// slot): new messages, reactions (each on its own message, so every one is a change), edits of
// the senders' own messages. Prints deliveries per second and the ratios. Bounded: fixed counts,
// a per-phase timeout and a hard timeout. Options: --clients=1000 --events=100 --window=20.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServerChild } from './child.mjs';
import { closeClients, connectClients } from './clients.mjs';
import { setUpConfab } from './confabSetup.mjs';

const option = (name, fallback) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const options = { clients: option('clients', 1000), events: option('events', 100), window: option('window', 20), senders: 10, phaseTimeoutMs: 60_000, timeoutMs: 600_000 };
const log = (...parts) => console.error('[bench:fanout]', ...parts);
const cleanups = [];
const cleanUp = async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
};
const hardTimeout = setTimeout(() => {
  log(`hard timeout of ${options.timeoutMs} ms reached; shutting down`);
  void cleanUp().finally(() => process.exit(2));
}, options.timeoutMs);

/** Sends `events` frames round-robin from the first `senders` sockets; counts frames containing `marker` on every socket. */
function runPhase({ sockets, marker, frameOf, events }) {
  const needle = Buffer.from(marker);
  const expected = events * sockets.length;
  let delivered = 0;
  let sent = 0;
  let inFlight = 0;
  let firstSendAt = 0;
  let lastDeliveryAt = 0;
  const errors = new Map();
  return new Promise((resolve) => {
    const listeners = new Map();
    const finish = (complete) => {
      clearTimeout(timer);
      sockets.forEach((socket) => socket.off('message', listeners.get(socket)));
      resolve({ complete, expected, delivered, perSecond: delivered / ((lastDeliveryAt - firstSendAt) / 1000), errors: Object.fromEntries(errors) });
    };
    const pump = () => {
      while (inFlight < options.window && sent < events) {
        const number = sent++;
        inFlight += 1;
        if (number === 0) firstSendAt = performance.now();
        sockets[number % options.senders].send(JSON.stringify(frameOf(number)));
      }
    };
    sockets.forEach((socket, index) => {
      const listener = (data) => {
        const buffer = Buffer.isBuffer(data) ? data : Buffer.from(data);
        if (buffer.indexOf(needle) === -1) {
          if (buffer.indexOf('"type":"error"') !== -1) {
            const code = JSON.parse(buffer.toString()).code;
            errors.set(code, (errors.get(code) ?? 0) + 1);
          }
          return;
        }
        delivered += 1;
        lastDeliveryAt = performance.now();
        if (index < options.senders) {
          inFlight -= 1;
          pump();
        }
        if (delivered === expected) finish(true);
      };
      listeners.set(socket, listener);
      socket.on('message', listener);
    });
    const timer = setTimeout(() => finish(false), options.phaseTimeoutMs);
    pump();
  });
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'confab-bench-fanout-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const child = await startServerChild('confab', { BENCH_DATA_DIR: dataDir });
  cleanups.push(child.stop);
  const target = await setUpConfab(child.url, options.senders);
  // The messages the reactions and edits land on: each sender's own, posted before anyone listens.
  const targets = [];
  for (let number = 0; number < options.events; number += 1) {
    const token = target.tokens[number % options.senders];
    const response = await fetch(`${child.url}/api/collections/messages/records`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify({ chat: target.chatId, content: `target ${number}` }),
    });
    if (!response.ok) throw new Error(`posting a target message: ${response.status} ${await response.text()}`);
    targets.push((await response.json()).id);
    // Stays under the per-person message rate.
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const sockets = await connectClients({ url: target.websocketUrl, tokens: target.tokens, chatId: target.chatId, count: options.clients });
  cleanups.push(() => closeClients(sockets));
  log(`${options.clients} clients joined`);
  const pause = () => new Promise((resolve) => setTimeout(resolve, 1_500));
  const phases = {};
  phases.message = await runPhase({ sockets, events: options.events, marker: '"type":"new_message"', frameOf: (number) => ({ type: 'send_message', chat_id: target.chatId, content: `bench ${number}`, client_id: `fanout-${number}` }) });
  await pause();
  phases.reaction = await runPhase({ sockets, events: options.events, marker: '"type":"reactions_changed"', frameOf: (number) => ({ type: 'add_reaction', message_id: targets[number], emoji: '👍' }) });
  await pause();
  phases.edit = await runPhase({ sockets, events: options.events, marker: '"type":"message_updated"', frameOf: (number) => ({ type: 'edit_message', message_id: targets[number], content: `edited ${number}` }) });
  for (const [name, result] of Object.entries(phases)) {
    log(`${name}: ${result.delivered}/${result.expected} deliveries, ${Math.round(result.perSecond)}/s${result.complete ? '' : ' (timed out)'}${Object.keys(result.errors).length > 0 ? ` errors ${JSON.stringify(result.errors)}` : ''}`);
  }
  const ratio = (name) => phases[name].perSecond / phases.message.perSecond;
  console.log(`fan-out to ${options.clients} clients, ${options.events} events each (deliveries/s): message ${Math.round(phases.message.perSecond)}, reaction ${Math.round(phases.reaction.perSecond)}, edit ${Math.round(phases.edit.perSecond)}`);
  for (const name of ['reaction', 'edit']) {
    const value = ratio(name);
    console.log(`${name} / message: ${value.toFixed(2)}x (target >= 0.8x) ${value >= 0.8 && phases[name].complete ? 'OK' : 'BELOW TARGET'}`);
  }
  return Object.values(phases).every((phase) => phase.complete) && ratio('reaction') >= 0.8 && ratio('edit') >= 0.8;
}

const ok = await main().catch((error) => {
  log(error instanceof Error ? error.stack : String(error));
  return false;
});
clearTimeout(hardTimeout);
await cleanUp();
process.exit(ok ? 0 : 1);
