// The printed result: one row per run, the per-server medians over the rounds, then the
// confab/bare ratios of those medians against the targets. Medians because the machine
// may be shared: alternating rounds and taking medians keeps one noisy moment from deciding.
import { formatTable, kib, ms, percentile } from './stats.mjs';

const TARGETS = { throughput: 0.6, p99: 1.5, memory: 1.5 };

/** Plain numbers of one run (or why it did not run). */
export function summarise(result, round) {
  if (result.unavailable) return { kind: result.kind, round, unavailable: result.unavailable };
  const { throughput, latency } = result;
  return {
    kind: result.kind,
    round,
    connectSeconds: result.connectSeconds,
    rate: throughput.delivered / throughput.seconds,
    cpuPerDelivery: result.serverCpuPerDelivery,
    p50: percentile(latency.latencies, 0.5),
    p99: percentile(latency.latencies, 0.99),
    p99Saturated: percentile(throughput.latencies, 0.99),
    rss: result.memoryPerConnection.rss,
    heap: result.memoryPerConnection.heap,
    delivered: throughput.delivered + latency.delivered,
    expected: throughput.expected + latency.expected,
    errors: { ...throughput.errors, ...latency.errors },
  };
}

export function printReport(runs, options) {
  console.log(`\nFan-out: ${options.clients} clients in one chat (${options.users} users), ${options.senders} senders; ` +
    `throughput phase ${options.throughputMessages} messages (window ${options.window}); latency phase ` +
    `${options.latencyMessages} messages at ${options.latencyRatePerSecond}/s; ${options.rounds} round(s), alternating.\n` +
    'Memory = server process delta (after forced GC) per idle authenticated, joined connection.\n');
  console.log(formatTable(runs.map((run) => run.unavailable
    ? { server: run.kind, round: String(run.round), 'delivered msg/s': `not run: ${run.unavailable}` }
    : row(run))));
  const medians = Object.fromEntries(['bare', 'confab'].map((kind) => [kind, medianRun(runs.filter((run) => run.kind === kind && !run.unavailable))]));
  const { bare, confab } = medians;
  if (!bare || !confab) return;
  console.log('\nMedians\n' + formatTable([row(bare), row(confab)]));
  const ratios = [
    ['throughput (delivered msg/s) confab/bare', confab.rate / bare.rate, '>=', TARGETS.throughput],
    ['capacity (deliveries per server CPU-second) confab/bare', bare.cpuPerDelivery / confab.cpuPerDelivery, '>=', TARGETS.throughput],
    ['p99 latency (paced) confab/bare', confab.p99 / bare.p99, '<=', TARGETS.p99],
    ['memory per connection (RSS) confab/bare', confab.rss / bare.rss, '<=', TARGETS.memory],
    ['memory per connection (heap+external) confab/bare', confab.heap / bare.heap, '<=', TARGETS.memory],
  ];
  console.log('\n' + formatTable(ratios.map(([name, value, sense, target]) => ({
    ratio: name,
    value: `${value.toFixed(2)}x`,
    target: `${sense} ${target}x`,
    result: (sense === '>=' ? value >= target : value <= target) ? 'met' : 'MISSED',
  }))));
}

function medianRun(runs) {
  if (runs.length === 0) return undefined;
  const median = (key) => {
    const sorted = runs.map((run) => run[key]).sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const keys = ['connectSeconds', 'rate', 'cpuPerDelivery', 'p50', 'p99', 'p99Saturated', 'rss', 'heap', 'delivered', 'expected'];
  return { ...Object.fromEntries(keys.map((key) => [key, median(key)])), kind: runs[0].kind, round: 'median', errors: Object.assign({}, ...runs.map((run) => run.errors)) };
}

function row(run) {
  return {
    server: run.kind,
    round: String(run.round),
    'connect (s)': run.connectSeconds.toFixed(1),
    'delivered msg/s': Math.round(run.rate).toLocaleString('en'),
    'server CPU/delivery': `${run.cpuPerDelivery.toFixed(1)} µs`,
    'p50 (paced)': ms(run.p50),
    'p99 (paced)': ms(run.p99),
    'p99 (saturated)': ms(run.p99Saturated),
    'RSS/conn': kib(run.rss),
    'heap+ext/conn': kib(run.heap),
    delivered: `${run.delivered}/${run.expected}`,
    errors: Object.keys(run.errors).length ? JSON.stringify(run.errors) : '-',
  };
}
