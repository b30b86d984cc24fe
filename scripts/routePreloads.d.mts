// Types of scripts/routePreloads.mjs for apps/reference/vite.config.ts.
import type { Plugin } from 'vite';

export const routePreloadsPath: string;
export function routePreloads(): Plugin;
