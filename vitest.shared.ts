import { fileURLToPath } from 'node:url';

/**
 * Workspace packages resolve from source in dev and tests (house style 6):
 * these aliases point each public entry at its `src/` file.
 */
const root = fileURLToPath(new URL('.', import.meta.url));

export const workspaceAliases = [
  { find: /^@confab\/client\/protocol$/, replacement: `${root}packages/client/src/protocol/index.ts` },
  { find: /^@confab\/client\/rules$/, replacement: `${root}packages/client/src/rules/index.ts` },
  // The one fake backend and its contract suite: workspace tests and Storybook only, never published.
  { find: /^@confab\/client\/testing\/([\w-]+)$/, replacement: `${root}packages/client/src/testing/$1.ts` },
  { find: /^@confab\/client\/agent$/, replacement: `${root}packages/client/src/agent/index.ts` },
  { find: /^@confab\/client$/, replacement: `${root}packages/client/src/index.ts` },
  { find: /^@confab\/chat-ui$/, replacement: `${root}packages/chat-ui/src/index.ts` },
  { find: /^@confab\/server$/, replacement: `${root}packages/server/src/index.ts` },
];
