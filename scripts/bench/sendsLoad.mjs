// The load of `pnpm bench:sends`: REST creates over keep-alive connections, either back to back
// (saturation: each connection sends its next message when the last one is answered) or paced
// (a fixed rate, well under saturation, so the figure is latency rather than queueing).
import { httpClient } from './dropsHttp.mjs';
import { percentile } from './stats.mjs';

/**
 * One server under load. `send(index)` posts message `index` as sender `index % tokens.length`.
 * @param {{ url: string, path: string, chatId: string, tokens: string[], connections: number }} target
 */
export function sender(target) {
  const client = httpClient(target.url, target.connections);
  let errors = 0;
  const send = async (index) => {
    const token = target.tokens[index % target.tokens.length];
    const answer = await client.call('POST', target.path, token, { chat: target.chatId, content: `bench message ${index}: nothing to see here, just a line of chat` });
    if (answer.status < 200 || answer.status > 299) {
      errors += 1;
      if (errors === 1) console.error(`[bench:sends] ${target.path} → ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return answer.ms;
  };
  return { send, errors: () => errors, close: () => client.close() };
}

/** `count` messages over `connections` loops, back to back: messages per second and latencies. */
export async function saturate(load, { count, connections, firstIndex }) {
  let next = 0;
  const latencies = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, async () => {
    while (next < count) {
      const index = firstIndex + next;
      next += 1;
      latencies.push(await load.send(index));
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  return { rate: count / seconds, ...latencyFigures(latencies) };
}

/**
 * `count` messages at `ratePerSecond`, started on schedule whether or not earlier ones were
 * answered (a slow answer does not slow the arrivals, as with real people); each timed from its
 * own start to its answer.
 */
export async function paced(load, { count, ratePerSecond, firstIndex }) {
  const latencies = [];
  const inFlight = [];
  const started = performance.now();
  let sent = 0;
  while (sent < count) {
    const due = Math.min(count, Math.floor(((performance.now() - started) / 1000) * ratePerSecond) + 1);
    for (; sent < due; sent += 1) inFlight.push(load.send(firstIndex + sent).then((ms) => latencies.push(ms)));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  return latencyFigures(latencies);
}

function latencyFigures(latencies) {
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}
