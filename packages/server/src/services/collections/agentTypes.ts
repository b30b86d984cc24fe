/** User types that are agents (docs/PRODUCT.md §3); shared by the users rules and the wire form of messages. */
export const agentTypes = ['developer-agent', 'confab-agent'] as const;
