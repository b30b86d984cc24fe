import { access } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { Command } from 'commander';
import { agentErrorCodes, connectAgent } from '@confab/client/agent';
import type { AgentConnection, AgentWebSocketConstructor, MentionHandler } from '@confab/client/agent';
import { resolveAgentCredentials } from '../agentCredentials';
import type { AgentCredentials } from '../agentCredentials';
import { webSocketConstructor } from '../clients';
import { importHandler, watchHandler } from '../run/handlerModule';
import { RunLog } from '../run/runLog';
import { onStopSignal, exitWhenDrained } from '../stop';
import { CliError, errorMessage, runAction } from '../output';

/** How long a handler file that failed to load must stay unchanged before the failure is shown. */
const failureQuietMs = 400;

interface RunOptions {
  agent?: string;
  key?: string;
  server?: string;
  watch: boolean;
  json?: boolean;
}

/**
 * `confab run [handler] --agent <username>`: connects the agent with its key and calls the
 * handler module's default export for every mention; reloads the module when the file changes;
 * a handler that throws is logged with its stack (the SDK tells the chat it could not answer) and
 * the agent keeps running; Ctrl+C closes and exits 0.
 */
export function runCommand(): Command {
  return new Command('run')
    .description('run a local agent: its handler is called for every mention')
    .argument('[handler]', 'module whose default export is async (mention, reply) => …', './agent.mjs')
    .option('-a, --agent <username>', 'the agent to run as (its saved key is used)')
    .option('-k, --key <apiKey>', 'the agent API key instead of the saved one (prefer CONFAB_AGENT_KEY)')
    .option('-s, --server <url>', "server URL (or CONFAB_SERVER; default: the session's)")
    .option('--no-watch', 'do not reload the handler when its file changes')
    .option('--json', 'print NDJSON: one {"event": …} object per line')
    .action(async (handlerArgument: string, options: RunOptions) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const file = resolve(handlerArgument);
        const shown = relative(process.cwd(), file) || file;
        await access(file).catch(() => {
          throw new CliError(`No handler at ${shown}. \`confab init\` creates a project with one, or name the file: confab run path/to/agent.mjs`);
        });
        const credentials = await resolveAgentCredentials(options);
        let handler = await importHandler(file).catch((error: unknown) => {
          throw new CliError(errorMessage(error));
        });
        const log = new RunLog(json);
        log.connecting(credentials.server, shown);
        const agent = connectAgent({
          url: credentials.server,
          apiKey: credentials.apiKey,
          WebSocket: webSocketConstructor() as unknown as AgentWebSocketConstructor,
          logger: { error: () => {} }, // every failure also arrives as an 'error' event, logged in runUntilStopped
        });
        // A file that fails to load is reported once the editor is done with it: a save written in
        // several steps would otherwise show the error of every half-written version.
        let failure: ReturnType<typeof setTimeout> | null = null;
        // Loads can overlap (a failed one looks for its line); only the latest one's outcome counts.
        let latestLoad = 0;
        const forgetFailure = () => {
          if (failure !== null) clearTimeout(failure);
          failure = null;
        };
        const stopWatchingFile = options.watch
          ? watchHandler(
              file,
              () => {
                const load = ++latestLoad;
                importHandler(file).then(
                  (reloaded) => {
                    if (load !== latestLoad) return;
                    forgetFailure();
                    handler = reloaded;
                    log.reloaded(shown);
                  },
                  (error: unknown) => {
                    if (load !== latestLoad) return;
                    forgetFailure();
                    failure = setTimeout(() => {
                      failure = null;
                      log.error(`${errorMessage(error)} (still running the previous version)`);
                    }, failureQuietMs);
                  },
                );
              },
              forgetFailure,
            )
          : () => {};
        const stopWatching = () => {
          latestLoad += 1; // a load still under way has nothing left to report
          forgetFailure();
          stopWatchingFile();
        };
        // The module in use when the mention arrives: a reload between two mentions takes effect at once.
        const current: MentionHandler = (mention, reply) => handler(mention, reply);
        try {
          const signal = await runUntilStopped(agent, current, log, credentials);
          log.stopped(signal);
        } finally {
          stopWatching();
          await agent.close();
        }
        exitWhenDrained(0);
      });
    });
}

/**
 * Runs the handler and logs the agent's events until Ctrl+C (resolves with the signal), or until
 * the agent cannot run: a refused key, at start or later (rotated, deleted), or a key of another
 * agent than --agent (rejects with the reason).
 */
function runUntilStopped(agent: AgentConnection, handler: MentionHandler, log: RunLog, credentials: AgentCredentials): Promise<NodeJS.Signals> {
  const stop = onStopSignal();
  const unsubscribe: (() => void)[] = [];
  const running = new Promise<NodeJS.Signals>((resolveRun, rejectRun) => {
    let connectedBefore = false;
    let lastError = 'The agent stopped.';
    unsubscribe.push(
      agent.on('connected', ({ identity }) => {
        if (credentials.username !== null && identity.username !== credentials.username) {
          rejectRun(new CliError(`This key belongs to @${identity.username}, not @${credentials.username}.`));
          return;
        }
        log.connected(identity, credentials.server, connectedBefore);
        connectedBefore = true;
      }),
      agent.on('disconnected', ({ code, retryInMs }) => log.disconnected(code, retryInMs)),
      agent.on('mention', ({ mention }) => log.mention(mention)),
      agent.on('reply', ({ mention, message, streamed }) => log.reply(mention, message, streamed)),
      agent.on('error', ({ error, mention }) => {
        lastError = error.message;
        // A refused key ends the run: the one error handler prints it, once.
        if (error.code === agentErrorCodes.handlerFailed) log.error(error.message, mention, stackOf(error.cause));
        else if (error.code !== agentErrorCodes.invalidApiKey) log.error(error.message, mention);
      }),
      agent.on('status', ({ status }) => {
        // The SDK reports why (the error event, the ready rejection) just after this event.
        if (status === 'closed') setImmediate(() => rejectRun(new CliError(lastError)));
      }),
    );
    agent.ready.catch((error: unknown) => rejectRun(new CliError(errorMessage(error))));
    void stop.stopped.then(resolveRun);
  });
  agent.onMention(handler);
  return running.finally(() => {
    stop.dispose();
    for (const off of unsubscribe) off();
  });
}

function stackOf(cause: unknown): string | undefined {
  return cause instanceof Error && typeof cause.stack === 'string' ? cause.stack : undefined;
}
