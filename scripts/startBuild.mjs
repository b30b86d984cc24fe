/**
 * What `pnpm start` builds before it runs the server: the packages the server needs at run time
 * (the client, for @confab/client/rules), the reference app it serves, and the CLI it serves as an
 * npm tarball for the quickstart on My Agents (GET /api/packages/confab-cli.tgz). pnpm sorts them
 * by dependency.
 */
export const startBuildPackages = ['@confab/client', '@confab/server', '@confab/reference', '@confab/cli'];
