// The measured phases of `pnpm bench:drops`: page-1 latency of each feed on two servers at once,
// like toggles from many keep-alive clients, and the trending refresh with requests arriving.
import { idOf } from './dropsSeed.mjs';
import { percentile } from './stats.mjs';

export const feeds = [
  { name: 'following', path: '/api/drops/feed' },
  { name: 'trending', path: '/api/drops/trending' },
  { name: 'discover', path: '/api/drops/discover' },
];

const pageOne = (path) => `${path}?page=1&per_page=20`;

/** Sorted latencies → { median, p95 } in ms. */
export const summary = (sorted) => ({ median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) });

/** Throws unless a page-1 answer is a full page that keeps its feed's rules. */
function checkPage(feed, body) {
  if (!Array.isArray(body?.drops) || body.drops.length !== 20) throw new Error(`${feed.name}: expected a page of 20 drops, got ${body?.drops?.length}`);
  if (feed.name === 'discover') {
    const perChat = new Map();
    for (const drop of body.drops) perChat.set(drop.chat_id, (perChat.get(drop.chat_id) ?? 0) + 1);
    if (Math.max(...perChat.values()) > 2) throw new Error('discover: more than 2 drops of one chat on a page');
  }
}

/**
 * `requests` page-1 loads of each feed on each target, each followed by page 2 cut from page 1's
 * snapshot, interleaved (round by round, feed by feed, the targets' order alternating) so that
 * whatever else the machine does hits both alike. The first `warmup` rounds are not counted.
 * @param {Array<{ name: string, client: ReturnType<import('./dropsHttp.mjs').httpClient>, token: string }>} targets
 * @returns {Record<string, Record<string, { sorted: number[], pageTwo: number[], total: number }>>} by target, then feed
 */
export async function measureFeeds(targets, { requests, warmup }) {
  const results = Object.fromEntries(targets.map((target) => [target.name, Object.fromEntries(feeds.map((feed) => [feed.name, { sorted: [], pageTwo: [], total: 0 }]))]));
  for (let round = 0; round < warmup + requests; round += 1) {
    for (const feed of feeds) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) {
        const first = await target.client.call('GET', pageOne(feed.path), target.token);
        if (first.status !== 200) throw new Error(`${target.name} ${feed.path} → ${first.status} ${JSON.stringify(first.body)}`);
        checkPage(feed, first.body);
        const second = await target.client.call('GET', `${feed.path}?page=2&per_page=20&snapshot=${first.body.snapshot}`, target.token);
        if (second.status !== 200) throw new Error(`${target.name} ${feed.path} page 2 → ${second.status}`);
        checkPage(feed, second.body);
        const seen = new Set(first.body.drops.map((drop) => drop.id));
        if (second.body.drops.some((drop) => seen.has(drop.id))) throw new Error(`${feed.name}: page 2 repeats a drop of page 1`);
        const result = results[target.name][feed.name];
        result.total = first.body.total_count;
        if (round >= warmup) {
          result.sorted.push(first.ms);
          result.pageTwo.push(second.ms);
        }
      }
    }
  }
  for (const byFeed of Object.values(results)) {
    for (const result of Object.values(byFeed)) {
      result.sorted.sort((a, b) => a - b);
      result.pageTwo.sort((a, b) => a - b);
    }
  }
  return results;
}

/**
 * Each client (one signed-in person, one keep-alive connection) toggles likes back to back for
 * `seconds`: half on a hot set of 50 drops (many people on one row at once), half anywhere.
 * `net` is liked minus unliked as the answers tell it, to hold against the rows afterwards.
 */
export async function toggleLikes(client, tokens, { dropCount, seconds }) {
  const deadline = performance.now() + seconds * 1000;
  const latencies = [];
  let errors = 0;
  let net = 0;
  let state = 7;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
  const started = performance.now();
  await Promise.all(tokens.map(async (token) => {
    while (performance.now() < deadline) {
      const drop = next() < 0.5 ? Math.floor(next() * Math.min(50, dropCount)) : Math.floor(next() * dropCount);
      const answer = await client.call('POST', `/api/drops/${idOf('d', drop)}/like`, token);
      if (answer.status !== 200) {
        errors += 1;
        continue;
      }
      latencies.push(answer.ms);
      net += answer.body.liked ? 1 : -1;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { toggles: latencies.length, errors, net, seconds: elapsed, perSecond: latencies.length / elapsed, ...summary(latencies), p99: percentile(latencies, 0.99) };
}

/** Runs the server's trending refresh while one client keeps loading trending page 1. */
export async function refreshUnderLoad(server, client, token) {
  const during = [];
  let done = false;
  const refreshed = server.refresh().finally(() => (done = true));
  while (!done) {
    const answer = await client.call('GET', pageOne('/api/drops/trending'), token);
    if (answer.status !== 200) throw new Error(`trending during refresh → ${answer.status}`);
    during.push(answer.ms);
  }
  during.sort((a, b) => a - b);
  return { ...(await refreshed), requests: during.length, ...summary(during), max: during.at(-1) ?? Number.NaN };
}
