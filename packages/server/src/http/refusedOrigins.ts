import type { ServiceLogger } from '../services/context';

/** Distinct origins named in a warning before the server stops naming new ones (memory stays bounded). */
export const refusedOriginWarningLimit = 100;
/** An Origin header is attacker-chosen text: the log keeps this much of it. */
const originLogLength = 200;

/**
 * Says once per origin that a browser page was refused because its origin is not in
 * CONFAB_ALLOWED_ORIGINS. Without it an embedding site's sign-in fails with a generic message while
 * the server logs a 204 preflight and nothing else (docs/packages.md, Using the packages from
 * another origin). Shared by the API's CORS and the WebSocket upgrade, so a site gets one line.
 */
export class RefusedOriginWarnings {
  private readonly warned = new Set<string>();
  private full = false;

  constructor(
    private readonly logger: ServiceLogger,
    private readonly limit = refusedOriginWarningLimit,
  ) {}

  note(origin: string): void {
    const shown = origin.length > originLogLength ? `${origin.slice(0, originLogLength)}…` : origin;
    if (this.warned.has(shown) || this.full) return;
    if (this.warned.size >= this.limit) {
      this.full = true;
      this.logger.warn({ limit: this.limit }, `more origins not in CONFAB_ALLOWED_ORIGINS were refused; only the first ${this.limit} are logged`);
      return;
    }
    this.warned.add(shown);
    this.logger.warn(
      { origin: shown },
      `refused a browser request from ${shown}: that origin is not in CONFAB_ALLOWED_ORIGINS (comma list); add it there to let its pages use this server`,
    );
  }
}
