import { describe, expect, it } from 'vitest';
import { optionsFromEnvironment, parseFlags } from './config';
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
});
