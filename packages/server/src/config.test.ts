import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { optionsFromEnvironment, parseFlags, resolveConfig } from './config';
import { mergeOptions } from './server';

describe('configuration', () => {
  it('reads flags in both spellings', () => {
    expect(parseFlags(['--port', '9000', '--data-dir=/tmp/x', '--verbose'])).toEqual({ port: '9000', 'data-dir': '/tmp/x', verbose: 'true' });
  });

  it('lets flags win over the environment, and explicit options over both', () => {
    const fromEnvironment = optionsFromEnvironment(['--port', '9001'], { PORT: '7000', CONFAB_DATA_DIR: '/srv/data', CONFAB_MAIL_DOMAIN: 'mail.test' });
    expect(fromEnvironment).toMatchObject({ port: 9001, dataDir: '/srv/data', mailDomain: 'mail.test' });
    expect(mergeOptions({ port: 0, dataDir: undefined }, fromEnvironment)).toMatchObject({ port: 0, dataDir: '/srv/data' });
  });

  it('reads the Chromium of @browse from CONFAB_BROWSE_CHROMIUM; none (no rendering) when unset or blank', () => {
    expect(optionsFromEnvironment([], { CONFAB_BROWSE_CHROMIUM: '/usr/bin/chromium' }).browseChromium).toBe('/usr/bin/chromium');
    const dataDir = mkdtempSync(join(tmpdir(), 'confab-config-'));
    expect(resolveConfig({ dataDir, secret: 's', browseChromium: ' /usr/bin/chromium ' }).browseChromium).toBe('/usr/bin/chromium');
    expect(resolveConfig({ dataDir, secret: 's', browseChromium: '  ' }).browseChromium).toBeUndefined();
    expect(resolveConfig({ dataDir, secret: 's' }).browseChromium).toBeUndefined();
  });

  it('reads the limits of @data jobs and hosted-agent allowances; 0 turns spilling off, other bad numbers keep the defaults', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confab-config-'));
    expect(resolveConfig({ dataDir, secret: 's' })).toMatchObject({
      dataJobs: 2,
      dataJobsPerChat: 1,
      dataJobsPerUser: 1,
      dataJobTimeoutMs: 60_000,
      dataMemoryMegabytes: 256,
      dataSpillMegabytes: 512,
      agentCallsPerUserPerHour: 100,
      agentCallsPerChatPerHour: 300,
    });
    const environment = {
      CONFAB_DATA_JOBS: '4',
      CONFAB_DATA_JOBS_PER_CHAT: '2',
      CONFAB_DATA_JOBS_PER_USER: '3',
      CONFAB_DATA_JOB_SECONDS: '30',
      CONFAB_DATA_MEMORY_MB: '512',
      CONFAB_DATA_SPILL_MB: '0',
      CONFAB_AGENT_CALLS_PER_USER_PER_HOUR: '10',
      CONFAB_AGENT_CALLS_PER_CHAT_PER_HOUR: '20',
    };
    expect(resolveConfig({ ...optionsFromEnvironment([], environment), dataDir, secret: 's' })).toMatchObject({
      dataJobs: 4,
      dataJobsPerChat: 2,
      dataJobsPerUser: 3,
      dataJobTimeoutMs: 30_000,
      dataMemoryMegabytes: 512,
      dataSpillMegabytes: 0,
      agentCallsPerUserPerHour: 10,
      agentCallsPerChatPerHour: 20,
    });
    expect(resolveConfig({ ...optionsFromEnvironment([], { CONFAB_DATA_JOBS: 'lots', CONFAB_DATA_SPILL_MB: '-1' }), dataDir, secret: 's' })).toMatchObject({ dataJobs: 2, dataSpillMegabytes: 512 });
  });

  it('reads the metrics token, allow-list and drain delay, and stops the start with a clear error for bad ones', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confab-config-'));
    const environment = { CONFAB_METRICS_TOKEN: ' 0123456789abcdef0123 ', CONFAB_METRICS_ALLOW: '10.0.0.0/8, 127.0.0.1,::1,::ffff:192.168.0.0/112', CONFAB_DRAIN_DELAY_SECONDS: '5' };
    const config = resolveConfig({ ...optionsFromEnvironment([], environment), dataDir, secret: 's' });
    expect(config.metricsToken).toBe('0123456789abcdef0123');
    expect(config.drainDelayMs).toBe(5000);
    expect(config.metricsAllow.map((entry) => `${entry.range[0].toString()}/${entry.range[1]}`)).toEqual(['10.0.0.0/8', '127.0.0.1/32', '::1/128', '192.168.0.0/16']);
    expect(resolveConfig({ dataDir, secret: 's' })).toMatchObject({ metricsToken: undefined, metricsAllow: [], drainDelayMs: 0 });
    expect(() => resolveConfig({ dataDir, secret: 's', metricsToken: 'short' })).toThrow('CONFAB_METRICS_TOKEN must be at least 16 characters (got 5)');
    expect(() => resolveConfig({ dataDir, secret: 's', metricsToken: 'has a space in it, long enough' })).toThrow('CONFAB_METRICS_TOKEN must not contain spaces');
    expect(() => resolveConfig({ dataDir, secret: 's', metricsAllow: ['10.0.0.0/8', 'prometheus.internal'] })).toThrow("CONFAB_METRICS_ALLOW lists addresses and CIDR ranges, e.g. 127.0.0.1,10.0.0.0/8,::1 (got 'prometheus.internal')");
    expect(() => resolveConfig({ dataDir, secret: 's', metricsAllow: ['10.0.0.0/33'] })).toThrow("(got '10.0.0.0/33')");
    expect(() => resolveConfig({ ...optionsFromEnvironment([], { CONFAB_DRAIN_DELAY_SECONDS: 'soon' }), dataDir, secret: 's' })).toThrow('CONFAB_DRAIN_DELAY_SECONDS must be a number of seconds from 0 to 300');
    expect(() => resolveConfig({ dataDir, secret: 's', drainDelayMs: -1000 })).toThrow("(got '-1')");
  });
});
