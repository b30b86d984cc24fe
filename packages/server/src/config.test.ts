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
});
