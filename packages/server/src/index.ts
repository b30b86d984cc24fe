export { startServer } from './server';
export type { ConfabServer } from './server';
export type { ServerOptions } from './config';
