#!/usr/bin/env node
// `pnpm bench:ui`: does a chat of 10,000 messages open as fast as one of 100, in a real browser,
// and how long after the page's load event does content appear?
//
// Starts the built confab-server (packages/server/dist/bin.js) serving the built reference app
// (apps/reference/dist) on a temp data dir, seeds two chats through the record API (10,000 and 100
// messages), signs in once in Debian's Chromium (playwright-core), then opens /login (signed out,
// in a context of its own) and the two chats in alternating runs, each in a new tab. Measured
// inside the page, in ms since navigation start: the load event, the login form on screen, the
// chat's last message on screen. Prints every run and the medians with their targets: the big
// chat ≤ 1.2× the small one, message rows in the DOM ≤ 200, the login form ≤ 2× and a chat's last
// message ≤ 3× the load event of the same navigation (the median of the per-navigation ratios).
// Exits 1 when a target is missed.
//
//   pnpm bench:ui                      7 runs of each
//   pnpm bench:ui --runs=3             quicker
//   pnpm bench:ui --big=20000          a bigger chat
//   pnpm bench:ui --timeline=1         also print one chat open's requests (start → end, ms)
//   pnpm bench:ui --profile=1          also write a CPU profile of one chat open (Chrome DevTools'
//                                      .cpuprofile; the build's source maps name the functions)
//
// Needs `pnpm build` first (the server's dist and the app's dist). See scripts/bench/README.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../../', import.meta.url));
const serverBin = join(root, 'packages/server/dist/bin.js');
const webDir = join(root, 'apps/reference/dist');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const defaults = Object.freeze({
  runs: 7, // opens of each chat, alternating; the report uses medians
  big: 10_000, // messages in the big chat
  small: 100, // messages in the small chat
  maxRatio: 1.2, // target: big median ≤ this × small median
  maxRows: 200, // target: message rows in the DOM
  maxLoginRatio: 2, // target: login form on screen ≤ this × the load event
  maxChatRatio: 3, // target: a chat's last message on screen ≤ this × the load event
  timeline: 0, // 1: print the request timeline of one small-chat open
  profile: 0, // 1: write a CPU profile of one small-chat open
  concurrency: 32, // seeding requests in flight
  timeoutMs: 15 * 60_000, // the whole run
});

/** `--name=value` options over the defaults, e.g. `--runs=3`. */
function parseOptions(argv) {
  const parsed = { ...defaults };
  for (const argument of argv) {
    const match = /^--([a-zA-Z]+)=(.+)$/.exec(argument);
    if (!match || !(match[1] in defaults)) throw new Error(`unknown option ${argument}; known: ${Object.keys(defaults).join(', ')}`);
    const value = Number(match[2]);
    if (!Number.isFinite(value) || value < 0 || (value === 0 && defaults[match[1]] !== 0)) throw new Error(`--${match[1]} must be a positive number`);
    parsed[match[1]] = value;
  }
  return parsed;
}

const options = parseOptions(process.argv.slice(2));

const log = (line) => process.stderr.write(`${line}\n`);
const loadEventOf = (page) =>
  page.waitForFunction(() => (performance.getEntriesByType('navigation')[0]?.loadEventStart ?? 0) > 0, null, { timeout: 60_000, polling: 20 }).then(() =>
    page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventStart),
  );
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The built server on port 0; resolves once it prints its URL. */
async function startServer(dataDir) {
  const child = spawn(process.execPath, [serverBin, '--port', '0', '--host', '127.0.0.1', '--web-dir', webDir, '--data-dir', dataDir, '--log-level', 'warn'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      CONFAB_INBOUND_SMTP: 'off',
      // Seeding posts thousands of messages from one author: lift the per-user rate limit (20/s).
      CONFAB_MESSAGES_PER_USER_PER_SECOND: '1000000',
    },
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /Confab is running at (http:\/\/[^\s"]+)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`confab-server exited with ${code}:\n${output}`)));
  });
  return { child, url };
}

async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** The record API, as any client calls it. */
function api(baseUrl) {
  return async (path, body, token) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(`${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** Message bodies like a real chat's: short lines, some markdown, now and then a longer paragraph. */
function bodyOf(index, total) {
  if (index === total) return `Last message of ${total}: all caught up.`;
  switch (index % 5) {
    case 0:
      return `Message ${index}: **status** update, see the \`deploy\` log and [the runbook](https://example.com/runbook/${index}).`;
    case 1:
      return `Message ${index}: sounds good to me.`;
    case 2:
      return `Message ${index}:\n- first point\n- second point with *emphasis*\n- third point`;
    case 3:
      return `Message ${index}: ${'a longer paragraph that wraps over a few lines in the list, as people write them. '.repeat(3).trim()}`;
    default:
      return `Message ${index}: 👍`;
  }
}

/** A chat of `count` messages, posted in order (seq order) by the two people, `concurrency` at a time. */
async function seedChat(call, people, name, count) {
  const chat = await call('/api/collections/chats/records', { name, participants: people.map((person) => person.id) }, people[0].token);
  const started = performance.now();
  // Batches of `concurrency` in flight; seq follows arrival, which is close enough to index order.
  for (let next = 1; next <= count; next += options.concurrency) {
    const batch = [];
    for (let index = next; index < next + options.concurrency && index <= count; index += 1) {
      if (index === count) continue; // the last message goes alone, after everything else
      const author = people[index % people.length];
      batch.push(call('/api/collections/messages/records', { chat: chat.id, content: bodyOf(index, count) }, author.token));
    }
    await Promise.all(batch);
    if (next % 2000 < options.concurrency && count >= 2000) log(`  ${name}: ${Math.min(next + options.concurrency - 1, count)} / ${count}`);
  }
  await call('/api/collections/messages/records', { chat: chat.id, content: bodyOf(count, count) }, people[0].token);
  log(`  ${name}: ${count} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { id: chat.id, count, lastText: bodyOf(count, count) };
}

/**
 * Runs in the page before any of its scripts: notes when an element whose text is the last
 * message first intersects the viewport (checked on every animation frame after a DOM change),
 * in ms since navigation start.
 */
function watchForLastMessage(lastText) {
  const found = () => {
    for (const element of document.querySelectorAll('[role="log"] p, [role="log"] div')) {
      if (element.childElementCount === 0 && element.textContent?.includes(lastText)) return element;
    }
    return null;
  };
  let scheduled = false;
  const check = () => {
    scheduled = false;
    if (window.__benchLastVisibleMs !== undefined) return;
    const element = found();
    if (element === null) return;
    const box = element.getBoundingClientRect();
    if (box.height > 0 && box.bottom > 0 && box.top < window.innerHeight) window.__benchLastVisibleMs = performance.now();
  };
  new MutationObserver(() => {
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(check);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

/** Like watchForLastMessage, for the sign-in form: its password field on screen. */
function watchForLoginForm() {
  let scheduled = false;
  const check = () => {
    scheduled = false;
    if (window.__benchLoginVisibleMs !== undefined) return;
    const field = document.querySelector('form input[type="password"]');
    const box = field?.getBoundingClientRect();
    if (box && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight) window.__benchLoginVisibleMs = performance.now();
  };
  new MutationObserver(() => {
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(check);
    }
  }).observe(document, { childList: true, subtree: true });
}

/** One run: a signed-out tab opens /login; ms from navigation start to the load event and to the form on screen. */
async function openLogin(context, baseUrl) {
  const page = await context.newPage();
  try {
    await page.addInitScript(watchForLoginForm);
    await page.goto(`${baseUrl}/login`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__benchLoginVisibleMs !== undefined, null, { timeout: 60_000, polling: 20 });
    const visibleMs = await page.evaluate(() => window.__benchLoginVisibleMs);
    return { visibleMs, loadMs: await loadEventOf(page) };
  } finally {
    await page.close();
  }
}

/** The requests of the page so far, from resource timing: ms since navigation start. */
function requestTimeline(page) {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => `${entry.startTime.toFixed(0).padStart(6)} → ${entry.responseEnd.toFixed(0).padStart(6)}  ${entry.name.replace(location.origin, '')}`)
      .join('\n'),
  );
}

/** One run: a new tab opens /chat/:id; ms from navigation start to the last message on screen, and the rows in the DOM. */
async function openChat(context, baseUrl, chat, withTimeline = false, profilePath = null) {
  const page = await context.newPage();
  // What the open asks the record API for: the latest page, not the whole history.
  let fetched = 0;
  const pending = [];
  page.on('response', (response) => {
    if (!response.url().includes('/api/collections/messages/records')) return;
    pending.push(
      response
        .json()
        .then((body) => {
          fetched += Array.isArray(body?.items) ? body.items.length : 0;
        })
        .catch(() => {}),
    );
  });
  try {
    await page.addInitScript(watchForLastMessage, chat.lastText);
    const profiler = profilePath === null ? null : await page.context().newCDPSession(page);
    if (profiler !== null) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 200 }); // µs
      await profiler.send('Profiler.start');
    }
    await page.goto(`${baseUrl}/chat/${chat.id}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__benchLastVisibleMs !== undefined, null, { timeout: 60_000, polling: 50 });
    if (profiler !== null) writeFileSync(profilePath, JSON.stringify((await profiler.send('Profiler.stop')).profile));
    const visibleMs = await page.evaluate(() => window.__benchLastVisibleMs);
    const loadMs = await loadEventOf(page);
    const timeline = withTimeline ? await requestTimeline(page) : null;
    // Whatever the list renders once it has settled (later pages, measurement passes).
    await page.waitForTimeout(1_000);
    const rows = await page.evaluate(() => document.querySelectorAll('[role="log"] .cf-message-list__row, [role="log"] [data-index]').length);
    const messages = await page.evaluate(() => document.querySelectorAll('[role="log"] .cf-message').length);
    await Promise.all(pending);
    return { visibleMs, loadMs, rows: Math.max(rows, messages), fetched, timeline };
  } finally {
    await page.close();
  }
}

async function main() {
  for (const [what, path] of [
    ['the built server (pnpm build)', serverBin],
    ['the built app (pnpm build)', join(webDir, 'index.html')],
    ['Chromium (CHROMIUM_PATH)', chromiumPath],
  ]) {
    if (!existsSync(path)) throw new Error(`bench:ui needs ${what}: ${path} is missing`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-bench-ui-'));
  let server;
  let browser;
  const cleanUp = async () => {
    await browser?.close().catch(() => {});
    if (server) await stopServer(server.child).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  };
  const hardTimeout = setTimeout(() => {
    log(`bench:ui: over ${options.timeoutMs} ms; giving up`);
    void cleanUp().finally(() => process.exit(2));
  }, options.timeoutMs);
  try {
    server = await startServer(dataDir);
    log(`confab-server (dist) at ${server.url}, app from apps/reference/dist`);
    const call = api(server.url);
    const password = 'bench ui password 1';
    const people = [];
    for (const username of ['reader', 'writer']) {
      await call('/api/collections/users/records', { username, email: `${username}@example.com`, password, passwordConfirm: password });
      const auth = await call('/api/collections/users/auth-with-password', { identity: username, password });
      people.push({ id: auth.record.id, token: auth.token, username });
    }
    log('seeding through the record API…');
    const big = await seedChat(call, people, `Big chat (${options.big})`, options.big);
    const small = await seedChat(call, people, `Small chat (${options.small})`, options.small);

    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Username', { exact: true }).fill(people[0].username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Select a chat to get started').waitFor();
    await page.close();

    // Signed out: a context of its own, with nothing stored.
    const signedOut = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // One unmeasured open of each warms the HTTP cache and the server alike for all.
    await openLogin(signedOut, server.url);
    await openChat(context, server.url, small);
    await openChat(context, server.url, big);
    const results = { login: [], small: [], big: [] };
    const timesLoad = (result) => result.visibleMs / result.loadMs;
    log(`run  page                         load event ms   ms to content   ×load   rows in DOM   messages fetched`);
    for (let run = 1; run <= options.runs; run += 1) {
      // Alternate the order, so drift in the machine's load hits all alike.
      const chats = run % 2 === 1 ? [['small', small], ['big', big]] : [['big', big], ['small', small]];
      const order = run % 2 === 1 ? [['login', null], ...chats] : [...chats, ['login', null]];
      for (const [kind, chat] of order) {
        const result = chat === null ? await openLogin(signedOut, server.url) : await openChat(context, server.url, chat);
        results[kind].push(result);
        const what = chat === null ? '/login (form)' : `${chat.count} messages`;
        const chatColumns = chat === null ? '' : `   ${String(result.rows).padStart(11)}   ${String(result.fetched).padStart(16)}`;
        log(`${String(run).padStart(3)}  ${what.padEnd(28)} ${result.loadMs.toFixed(0).padStart(13)}   ${result.visibleMs.toFixed(0).padStart(13)}   ${timesLoad(result).toFixed(2).padStart(5)}${chatColumns}`);
      }
    }
    if (options.profile > 0) {
      const profilePath = join(root, 'bench-ui-chat.cpuprofile');
      const { visibleMs } = await openChat(context, server.url, small, false, profilePath);
      log(`CPU profile of one ${small.count}-message chat open (last message at ${visibleMs.toFixed(0)} ms): ${profilePath} (open it in Chrome DevTools' Performance panel)`);
    }
    if (options.timeline > 0) {
      const { timeline, loadMs, visibleMs } = await openChat(context, server.url, small, true);
      log(`requests of one ${small.count}-message chat open (ms since navigation start; load event ${loadMs.toFixed(0)}, last message ${visibleMs.toFixed(0)}):\n${timeline}`);
    }

    const smallMs = median(results.small.map((result) => result.visibleMs));
    const bigMs = median(results.big.map((result) => result.visibleMs));
    const ratio = bigMs / smallMs;
    const maxRows = Math.max(...results.big.map((result) => result.rows), ...results.small.map((result) => result.rows));
    const ratioOk = ratio <= options.maxRatio;
    const rowsOk = maxRows <= options.maxRows;
    const maxFetched = Math.max(...results.big.map((result) => result.fetched));
    // Time to content as a multiple of the same navigation's load event, so a busy machine slows both alike.
    const toContent = (kind, target) => {
      const loadMs = median(results[kind].map((result) => result.loadMs));
      const visibleMs = median(results[kind].map((result) => result.visibleMs));
      const ratioToLoad = median(results[kind].map(timesLoad));
      return { line: `load event ${loadMs.toFixed(0)} ms, on screen ${visibleMs.toFixed(0)} ms: ${ratioToLoad.toFixed(2)}× the load event (target ≤ ${target}×) ${ratioToLoad <= target ? 'OK' : 'MISSED'}`, ok: ratioToLoad <= target };
    };
    const login = toContent('login', options.maxLoginRatio);
    const smallContent = toContent('small', options.maxChatRatio);
    const bigContent = toContent('big', options.maxChatRatio);
    console.log(
      [
        `bench:ui (${options.runs} alternating runs each, Chromium, medians in ms since navigation start)`,
        `  ${String(options.small).padStart(6)} messages: median ${smallMs.toFixed(0)} ms to the last message`,
        `  ${String(options.big).padStart(6)} messages: median ${bigMs.toFixed(0)} ms to the last message`,
        `  ratio ${ratio.toFixed(2)}× (target ≤ ${options.maxRatio}×) ${ratioOk ? 'OK' : 'MISSED'}`,
        `  message rows in the DOM: at most ${maxRows} (target ≤ ${options.maxRows}) ${rowsOk ? 'OK' : 'MISSED'}`,
        `  messages fetched to open the ${options.big}-message chat: at most ${maxFetched}`,
        `time to content, as a multiple of the load event of the same navigation:`,
        `  /login form:                  ${login.line}`,
        `  ${`${options.small}-message chat, last message:`.padEnd(29)} ${smallContent.line}`,
        `  ${`${options.big}-message chat, last message:`.padEnd(29)} ${bigContent.line}`,
      ].join('\n'),
    );
    process.exitCode = ratioOk && rowsOk && login.ok && smallContent.ok && bigContent.ok ? 0 : 1;
  } finally {
    clearTimeout(hardTimeout);
    await cleanUp();
  }
}

main().catch((error) => {
  console.error(`bench:ui: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
});
