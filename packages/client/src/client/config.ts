import type { AppConfig } from '../types';
import { isImageExtension } from '../validation/upload';

/**
 * Config derived from the host when GET /api/config fails (docs/PRODUCT.md §7): the API on the same
 * origin and the WebSocket at ws(s)://host/api/ws.
 */
export function deriveConfigFromHost(baseUrl: string): AppConfig {
  const url = new URL(baseUrl);
  const websocketProtocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return {
    api_base_url: `${url.protocol}//${url.host}`,
    websocket_url: `${websocketProtocol}//${url.host}/api/ws`,
    environment: isLocalHost(url.hostname) ? 'development' : 'production',
    public_domain: url.host,
  };
}

/** Keeps each served field that is a non-empty string, taking the derived value for the rest. */
export function mergeConfig(served: unknown, fallback: AppConfig): AppConfig {
  if (typeof served !== 'object' || served === null) return fallback;
  const values = served as Record<string, unknown>;
  const pick = (key: Exclude<keyof AppConfig, 'mail_domain' | 'upload_extensions'>): string => {
    const value = values[key];
    return typeof value === 'string' && value !== '' ? value : fallback[key];
  };
  const mailDomain = values['mail_domain'];
  const added = values['upload_extensions'];
  const uploadExtensions = Array.isArray(added) ? added.filter((extension): extension is string => typeof extension === 'string' && isImageExtension(extension)) : [];
  return {
    api_base_url: pick('api_base_url'),
    websocket_url: pick('websocket_url'),
    environment: pick('environment'),
    public_domain: pick('public_domain'),
    ...(typeof mailDomain === 'string' && mailDomain.trim() !== '' ? { mail_domain: mailDomain.trim() } : {}),
    ...(uploadExtensions.length > 0 ? { upload_extensions: uploadExtensions } : {}),
  };
}

function isLocalHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname.endsWith('.localhost');
}
