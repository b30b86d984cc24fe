/**
 * The My Agents quickstart as a newcomer follows it: a person signs up in Chromium, opens My
 * Agents and copies each command with its Copy button; each runs in a fresh HOME and shell that
 * have only Node.js and npm (scripts/newcomerShell.mjs): the CLI installed with `npm install -g`
 * from this server's tarball, a real `npm install` of the project `confab init` writes (its
 * @confab/* from this server too, nothing linked from the workspace). Every command must print
 * what the page says it prints, and the agent must answer a mention typed in its dev room.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newcomerShell, type NewcomerShell, type StartedCommand } from '../../../scripts/newcomerShell.mjs';
import { describeBrowser, newAccount, registerInBrowser, startStack, type Stack } from './harness';

/** Generous bounds for a shared 2-core machine; the bench reports the real times. */
const commandTimeoutMs = 120_000;

describeBrowser('the agent quickstart, as shown on My Agents', () => {
  let stack: Stack;
  let shell: NewcomerShell | undefined;
  let agentRun: StartedCommand | undefined;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await agentRun?.stop();
    await shell?.dispose();
    await stack?.stop();
  });

  it('every command copied from the page works in a new shell, and the agent answers a mention', { timeout: 420_000 }, async () => {
    const person = newAccount('newcomer');
    const { page, context } = await stack.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
    await registerInBrowser(page, person);
    await page.goto('/agents');
    const quickstart = page.getByRole('region', { name: 'Quickstart' });
    await quickstart.waitFor();

    // What the page shows, and what its Copy buttons put on the clipboard: the same commands.
    const commands = await quickstart.locator('[data-quickstart-command]').allTextContents();
    const outputs = await quickstart.locator('[data-quickstart-output]').allTextContents();
    expect(commands.length).toBeGreaterThanOrEqual(4);
    expect(outputs.length).toBe(commands.length);
    expect(commands[0]).toBe(`npm install -g ${stack.baseUrl}/api/packages/confab-cli.tgz`);
    const copied: string[] = [];
    for (let step = 1; step <= commands.length; step += 1) {
      await quickstart.getByRole('button', { name: `Copy step ${step}` }).click();
      await quickstart.getByText('Copied!').first().waitFor();
      copied.push(await page.evaluate(() => navigator.clipboard.readText()));
    }
    expect(copied).toEqual(commands);

    // The newcomer's npm installs global packages into a folder of their own, as the page's hint for
    // EACCES says (newcomerShell runs that command), never into /usr.
    expect(await quickstart.textContent()).toContain('npm config set prefix ~/.npm-global, add ~/.npm-global/bin to your PATH');
    // The login step asks for the password on a terminal; as the page says, a script sets CONFAB_PASSWORD.
    shell = await newcomerShell({ env: { CONFAB_PASSWORD: person.password } });
    for (const [index, command] of copied.slice(0, -1).entries()) {
      const { output } = await shell.run(command, { timeoutMs: commandTimeoutMs });
      expect(output, command).toContain(outputs[index]);
    }
    // Installed from this server into the newcomer's own npm prefix, nothing from the workspace.
    const globalCli = await shell.run('command -v confab && npm ls -g --depth=0');
    expect(globalCli.output).toContain(`${shell.home}/.npm-global/bin/confab`);
    expect(globalCli.output).toMatch(/@confab\/cli@\d+\.\d+\.\d+$/m);
    const project = await shell.run('npm ls --depth=0 && cat package.json');
    expect(project.output).toContain(`"@confab/client": "${stack.baseUrl}/api/packages/confab-client-`);
    expect(project.output).not.toMatch(/-> .*packages\/(client|cli)/);

    // The last step runs the agent until Ctrl+C.
    agentRun = shell.start(copied.at(-1)!);
    await agentRun.until(outputs.at(-1)!, 60_000);

    // The person mentions it in its dev room (made when it first connected), from My Agents.
    const agentUsername = /--agent (\w+)/.exec(copied.at(-1)!)![1]!;
    await page.goto('/agents');
    const card = page.getByRole('article', { name: 'My Agent' });
    await card.filter({ hasText: 'Online' }).waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: 'Open Dev Room' }).click();
    await page.waitForURL(/\/chat\/[a-z0-9]{15}$/);
    const input = page.getByRole('combobox', { name: 'Message' });
    await input.click();
    await input.pressSequentially(`@${agentUsername} hello from the quickstart`);
    await input.press('Escape');
    await input.press('Enter');
    await page
      .getByRole('article', { name: 'My Agent (Agent)' })
      .filter({ hasText: `You said: @${agentUsername} hello from the quickstart` })
      .waitFor({ timeout: 30_000 });
    await agentRun.until(`→ @${person.username}`, 15_000);

    expect(await agentRun.stop()).toBe(0);
    agentRun = undefined;
  });
});
