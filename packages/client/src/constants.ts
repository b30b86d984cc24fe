/**
 * Business constants and limits of docs/PRODUCT.md §9, in one place so screens, the client and the
 * server agree. Durations carry their unit in the name.
 */
export const constants = {
  drop: { titleMaxLength: 100, contentMaxLength: 2000, cardMaxTags: 3, listPerPage: 20 },
  upload: {
    maxSizeBytes: 100 * 1024 * 1024,
    allowedExtensions: ['.pdf', '.txt', '.csv', '.json', '.md', '.docx', '.xlsx', '.html', '.xml', '.log'],
    audioExtensions: ['.mp3', '.wav', '.ogg', '.m4a', '.flac'],
    /**
     * Image types a server operator may add to the allow-list (CONFAB_UPLOAD_EXTENSIONS): raster
     * formats whose signature is checked and that a browser shows without running anything. Never SVG.
     */
    imageExtensions: ['.png', '.jpg', '.jpeg', '.gif', '.webp'],
  },
  passwordMinLength: {
    register: 8,
    completeAccount: 8,
    invitationSignup: 6,
    setNewPassword: 6,
  },
  searchResults: { perPage: 8, snippetMaxLength: 150 },
  agentAutocomplete: { debounceMs: 300, descriptionMaxLength: 60 },
  agentSearch: { debounceMs: 300, cacheMs: 30_000, minQueryLength: 1 },
  shareLink: { expiresInHours: 24, maxUses: 50 },
  inviteSearchMinLength: 2,
  redirectDelayMs: {
    afterRegister: 500,
    afterCurrentUserJoin: 1000,
    afterInvite: 1500,
    afterJoin: 2000,
    afterPasswordReset: 2000,
    afterCompleteAccount: 3000,
  },
  copyConfirmationMs: 3000,
  privateRouteAuthCheckMs: 100,
  heartbeat: { pingIntervalMs: 30_000, pongTimeoutMs: 10_000 },
  reconnect: { maxAttempts: 5, initialDelayMs: 1000, maxDelayMs: 30_000 },
  realtimeConnectTimeoutMs: 15_000,
  filesPanel: { pageSize: 10, fetchLimit: 100 },
  list: { defaultPageSize: 30, fullListBatchSize: 500 },
  // Following, Trending and Discover of docs/PRODUCT.md §9, then ours: the drops one bookmarked
  // ('Saved'), served like the others (GET /api/drops/bookmarks).
  feedTabs: ['following', 'trending', 'discover', 'bookmarks'],
  defaultFeedTab: 'following',
  titleFlashIntervalMs: 1500,
  // Not in docs/PRODUCT.md, chosen here: how long an optimistic message stays pending before it is
  // marked failed, and how many messages one history page holds.
  messageSendTimeoutMs: 10_000,
  messagePageSize: 50,
} as const;

export type FeedTab = (typeof constants.feedTabs)[number];
