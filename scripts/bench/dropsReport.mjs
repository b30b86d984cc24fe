// The printed report of `pnpm bench:drops`: three tables and a one-line summary.
import { summary } from './dropsPhases.mjs';
import { formatTable } from './stats.mjs';

const ms = (value) => value.toFixed(2);

/** @returns {boolean} whether every target held */
export function printReport({ options, targets, small, large, feedRows, toggles, counters, refresh }) {
  const [few, many] = [small.name, large.name];
  console.log(`\nDrops feeds: page 1 (per_page 20, taking a snapshot of up to 1,000 ids), ${options.requests} requests per feed per server after ${options.warmup} warm-up rounds, ` +
    'one at a time, both servers interleaved; each followed by page 2 cut from that snapshot.');
  console.log(`${many}: ${options.drops} drops, ${options.drops * options.likesPerDrop} likes, ${options.drops * options.viewsPerDrop} views; ${few}: ${options.smallDrops} drops and ` +
    `proportionally fewer. ${options.chats} chats, ${options.users} users; the reader follows ${options.followed} chats.\n`);
  console.log(formatTable(feedRows.map((row) => ({
    feed: row.feed,
    [`${few} median ms`]: ms(row.few.median), [`${few} p95 ms`]: ms(row.few.p95),
    [`${many} median ms`]: ms(row.many.median), [`${many} p95 ms`]: ms(row.many.p95),
    [`total (${few} / ${many})`]: row.totals,
    [`${many}/${few} median`]: `${row.ratio.toFixed(2)}×`, [`${many}/${few} p95`]: `${row.p95Ratio.toFixed(2)}×`,
    [`target ≤ ${targets.feedRatio}×`]: row.pass ? 'pass' : 'FAIL',
    [`page 2 median ms (${few} / ${many})`]: `${ms(row.pageTwo[0])} / ${ms(row.pageTwo[1])}`,
  }))));

  const { before, after } = counters;
  const exact = before.likeMismatches === 0 && before.viewMismatches === 0 && after.likeMismatches === 0 && after.likeRows - before.likeRows === toggles.net && toggles.errors === 0;
  const fastEnough = toggles.perSecond >= targets.togglesPerSecond;
  console.log(`\nLike toggles on ${many} (SQLite): ${options.clients} keep-alive clients, ${options.seconds} s, half on 50 hot drops.\n`);
  console.log(formatTable([{
    toggles: String(toggles.toggles), 'toggles/s': toggles.perSecond.toFixed(0), 'median ms': ms(toggles.median), 'p99 ms': ms(toggles.p99), errors: String(toggles.errors),
    'like rows Δ = answers Δ': `${after.likeRows - before.likeRows} = ${toggles.net}`, 'drops with like_count ≠ rows': `${after.likeMismatches} of ${after.drops}`,
    'view_count ≠ rows (seed)': String(before.viewMismatches),
    [`target ≥ ${targets.togglesPerSecond}/s, exact`]: fastEnough && exact ? 'pass' : 'FAIL',
  }]));

  const idle = summary(refresh.idleSorted);
  console.log(`\nTrending refresh on ${many}, on the live server while trending page 1 kept loading (idle median ${ms(idle.median)} ms):\n`);
  console.log(formatTable([{
    'refresh s': (refresh.durationMs / 1000).toFixed(2), 'longest event-loop stall ms': ms(refresh.longestStallMs),
    'trending loads meanwhile': String(refresh.requests), 'their median ms': ms(refresh.median), 'p95 ms': ms(refresh.p95), 'max ms': ms(refresh.max),
  }]));

  const passed = feedRows.every((row) => row.pass) && fastEnough && exact;
  console.log(`\nbench:drops ${passed ? 'PASS' : 'FAIL'}: ${feedRows.map((row) => `${row.feed} ${row.ratio.toFixed(2)}×`).join(', ')} (${many}/${few} median, target ≤ ${targets.feedRatio}×); ` +
    `${toggles.perSecond.toFixed(0)} like toggles/s (target ≥ ${targets.togglesPerSecond}), counts ${exact ? 'exact' : 'NOT exact'}; ` +
    `trending refresh ${(refresh.durationMs / 1000).toFixed(2)} s at ${options.drops} drops, longest event-loop stall ${refresh.longestStallMs.toFixed(0)} ms.`);
  return passed;
}
