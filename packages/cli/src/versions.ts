/**
 * The CLI's own version and the @confab/client version it was built against, read from the two
 * package.json files at build time (tsup `define`, vitest `define`), so `confab --version` and the
 * `@confab/client` range `confab init` writes never drift from the packages.
 */
declare const __CONFAB_CLI_VERSION__: string;
declare const __CONFAB_CLIENT_VERSION__: string;

export const versions = {
  cli: __CONFAB_CLI_VERSION__,
  client: __CONFAB_CLIENT_VERSION__,
} as const;
