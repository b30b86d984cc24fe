/**
 * Loads where only the newest may write to the store: each `renew()` makes every earlier load
 * stale (a newer load began, the chat closed, another person signed in), so an answer that
 * arrives late never overwrites a newer one. A load keeps the signal it began with and checks
 * `signal.aborted` after each await.
 *
 * @example
 * const signal = this.loads.renew();
 * const agents = await request('/api/agents/mine');
 * if (!signal.aborted) store.setState({ agents });
 */
export class LatestOnly {
  private controller = new AbortController();

  /** The signal of the newest load; aborted once a newer one begins. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Makes every load so far stale; answers the new current signal. */
  renew(): AbortSignal {
    this.controller.abort();
    this.controller = new AbortController();
    return this.controller.signal;
  }
}
