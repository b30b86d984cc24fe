// The printed report of `pnpm bench:sends`: per database, one row per round, the ratios of the
// medians against the targets, then a one-line summary. Medians of alternating rounds, because
// the machine may be shared.
import { formatTable, ms } from './stats.mjs';

const targets = { ratio: 0.6, sqliteRate: 1_500, p99: 1.5 };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** @returns {boolean} whether every target held */
export function printSendsReport(results, options) {
  console.log(`\nPersisted sends: POST a message over ${options.connections} keep-alive connections, back to back, ` +
    `${options.messages} per round (${options.rounds} rounds, bare and confab alternating), then ${options.latencyMessages} paced at half ` +
    `confab's median rate. confab: the record API, ${options.users} senders, JSON request logs on; bare: Fastify and one INSERT.`);
  const verdicts = [];
  for (const result of results) {
    const { database, rounds } = result;
    console.log(`\n${database}\n`);
    console.log(formatTable(rounds.map((row) => ({
      round: String(row.round),
      'bare msg/s': row.bare.rate.toFixed(0), 'confab msg/s': row.confab.rate.toFixed(0), 'confab/bare': `${(row.confab.rate / row.bare.rate).toFixed(2)}×`,
      'CPU/send bare': `${row.bare.cpuPerSend.toFixed(0)} µs`, 'CPU/send confab': `${row.confab.cpuPerSend.toFixed(0)} µs`,
      [`p99 at ${result.ratePerSecond}/s bare`]: ms(row.barePaced.p99), [`p99 at ${result.ratePerSecond}/s confab`]: ms(row.confabPaced.p99),
      'p50 paced bare / confab': `${ms(row.barePaced.p50)} / ${ms(row.confabPaced.p50)}`,
    }))));
    const pick = (kind, key) => median(rounds.map((row) => row[kind][key]));
    const rate = pick('confab', 'rate');
    const checks = [
      ['sends/s confab/bare', rate / pick('bare', 'rate'), '>=', targets.ratio],
      ['capacity (sends per server CPU-second) confab/bare', pick('bare', 'cpuPerSend') / pick('confab', 'cpuPerSend'), '>=', undefined],
      [`p99 at ${result.ratePerSecond}/s confab/bare`, pick('confabPaced', 'p99') / pick('barePaced', 'p99'), '<=', targets.p99],
    ];
    console.log('\n' + formatTable([
      ...checks.map(([name, value, sense, target]) => ({
        figure: name, value: `${value.toFixed(2)}×`, target: target === undefined ? '-' : `${sense} ${target}×`,
        result: target === undefined ? '-' : verdict(verdicts, sense === '>=' ? value >= target : value <= target),
      })),
      ...(database === 'sqlite' ? [{ figure: 'confab sends/s', value: rate.toFixed(0), target: `>= ${targets.sqliteRate}`, result: verdict(verdicts, rate >= targets.sqliteRate) }] : []),
      {
        figure: 'stored = answered, no errors', value: `${result.stored} of ${result.sent}; errors bare ${result.errors.bare}, confab ${result.errors.confab}`,
        target: 'all', result: verdict(verdicts, result.stored === result.sent && result.errors.bare + result.errors.confab === 0),
      },
    ]));
  }
  const passed = verdicts.every(Boolean);
  console.log(`\nbench:sends ${passed ? 'PASS' : 'FAIL'}`);
  return passed;
}

function verdict(verdicts, holds) {
  verdicts.push(holds);
  return holds ? 'met' : 'MISSED';
}
