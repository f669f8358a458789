import type { TokenPair } from './auth.service.js';

/** The token pair of docs/api.md#token-pair-sign-in-and-refresh: the times as ISO 8601 UTC strings. */
export const toTokenPairDto = (pair: TokenPair) => ({
  ...pair,
  expiresAt: pair.expiresAt.toISOString(),
  refreshExpiresAt: pair.refreshExpiresAt.toISOString(),
});
