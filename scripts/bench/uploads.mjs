// `pnpm bench:uploads`: 100 MB uploads to confab-server (multipart, streamed, checked, stored)
// next to a bare node:http server that only streams the body to disk, in alternating rounds.
// Printed: throughput (MB/s), server CPU per MB, and the server's peak RSS during the uploads
// (sampled every 10 ms) above its RSS before them, after GC — the proof that an upload is
// streamed, not held in memory.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerChild } from './child.mjs';
import { setUpConfab } from './confabSetup.mjs';
import { formatTable } from './stats.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
const rounds = Number(args.rounds ?? 3);
const uploadsPerRound = Number(args.uploads ?? 3);
const megabytes = Number(args.megabytes ?? 100);
const bytes = megabytes * 1024 * 1024;
const chunk = Buffer.alloc(1024 * 1024, 'x');

/** Resident memory of a process now (VmRSS), in bytes. */
function rssOf(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** Samples a process's RSS every 10 ms until stopped; resolves with the highest value seen. */
function watchRss(pid) {
  let highest = rssOf(pid);
  const timer = setInterval(() => {
    highest = Math.max(highest, rssOf(pid));
  }, 10);
  return () => {
    clearInterval(timer);
    return Math.max(highest, rssOf(pid));
  };
}

/** Streams one upload of `bytes` bytes; resolves with its status. */
function upload(url, headers, prefix, suffix) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': String(prefix.length + bytes + suffix.length) } });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    request.on('error', reject);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const size = Math.min(chunk.length, bytes - sent);
        sent += size;
        if (!request.write(size === chunk.length ? chunk : chunk.subarray(0, size))) return void request.once('drain', pump);
      }
      request.end(suffix);
    };
    request.write(prefix);
    pump();
  });
}

async function runOne(kind) {
  const dataDir = mkdtempSync(join(tmpdir(), `confab-upload-bench-${kind}-`));
  const server = await startServerChild(kind === 'bare' ? 'bareUpload' : 'confab', { BENCH_DATA_DIR: dataDir });
  try {
    let url = `${server.url}/upload`;
    let headers = { 'content-type': 'application/octet-stream' };
    let prefix = Buffer.alloc(0);
    let suffix = Buffer.alloc(0);
    if (kind === 'confab') {
      const { tokens, chatId } = await setUpConfab(server.url, 1);
      const boundary = 'benchboundary7d1f';
      url = `${server.url}/api/collections/files/records`;
      headers = { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: tokens[0] };
      prefix = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="chat"\r\n\r\n${chatId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.log"\r\nContent-Type: text/plain\r\n\r\n`);
      suffix = Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    await server.memory();
    const rssBefore = rssOf(server.pid);
    const stopWatching = watchRss(server.pid);
    const cpuBefore = await server.cpu();
    const started = process.hrtime.bigint();
    for (let index = 0; index < uploadsPerRound; index += 1) {
      const status = await upload(url, headers, prefix, suffix);
      if (status !== 200) throw new Error(`${kind} upload answered ${status}`);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuMicroseconds = (await server.cpu()) - cpuBefore;
    const peakGrowth = stopWatching() - rssBefore;
    const totalMb = (uploadsPerRound * bytes) / (1024 * 1024);
    return { kind, mbPerSecond: totalMb / seconds, cpuMsPerMb: cpuMicroseconds / 1000 / totalMb, peakGrowthMb: Math.max(0, peakGrowth) / (1024 * 1024) };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const runs = [];
for (let round = 1; round <= rounds; round += 1) {
  for (const kind of ['bare', 'confab']) runs.push({ round, ...(await runOne(kind)) });
}
const show = (run) => ({
  server: run.kind,
  round: String(run.round ?? 'median'),
  'MB/s': run.mbPerSecond.toFixed(0),
  'server CPU ms/MB': run.cpuMsPerMb.toFixed(2),
  'peak RSS growth MB': run.peakGrowthMb.toFixed(1),
});
console.log(`\nUploads: ${uploadsPerRound} × ${megabytes} MB per round, ${rounds} alternating round(s), one at a time over loopback.\n`);
console.log(formatTable(runs.map(show)));
const medians = Object.fromEntries(['bare', 'confab'].map((kind) => {
  const mine = runs.filter((run) => run.kind === kind);
  return [kind, { kind, round: 'median', mbPerSecond: median(mine.map((run) => run.mbPerSecond)), cpuMsPerMb: median(mine.map((run) => run.cpuMsPerMb)), peakGrowthMb: median(mine.map((run) => run.peakGrowthMb)) }];
}));
console.log('\nMedians\n' + formatTable([show(medians.bare), show(medians.confab)]));
console.log(`\nconfab / bare: throughput ${(medians.confab.mbPerSecond / medians.bare.mbPerSecond).toFixed(2)}×, ` +
  `CPU per MB ${(medians.confab.cpuMsPerMb / medians.bare.cpuMsPerMb).toFixed(2)}×, ` +
  `peak memory growth ${(medians.confab.peakGrowthMb / medians.bare.peakGrowthMb).toFixed(2)}× ` +
  `(${medians.confab.peakGrowthMb.toFixed(1)} MB while receiving ${megabytes} MB files: streamed, not held).`);
