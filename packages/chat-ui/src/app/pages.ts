import type { ComponentType } from 'react';
import { lazyPart } from '../internal/lazyPart';

/** A page of ConfabApp: rendered like a component, its code fetched on first render or on `preload`. */
export type LazyPage<Props extends object = object> = ComponentType<Props> & {
  preload: () => Promise<void>;
  /** True once the code is here (a render then shows the page without a placeholder). */
  isLoaded: () => boolean;
};

function lazyPage<Props extends object = object>(load: () => Promise<{ default: ComponentType<Props> }>): LazyPage<Props> {
  let loaded = false;
  const part = lazyPart(
    () =>
      load().then((module) => {
        loaded = true;
        return module;
      }),
    (module) => module.default,
  );
  return Object.assign(part.Component, { preload: part.preload, isLoaded: () => loaded });
}

/** True for an element type that is a lazy page (the route prefetch looks for them). */
export function isLazyPage(type: unknown): type is LazyPage {
  return typeof type === 'function' && typeof (type as Partial<LazyPage>).preload === 'function';
}

/*
 * Every page is a chunk of its own (the host's bundler splits at each dynamic import; tsup keeps
 * the split in the published build), fetched the first time a route renders it or a link to it
 * is pointed at. apps/reference holds its routes to JS budgets over these modules
 * (apps/reference/routeBudgets.json).
 */
export const Home = lazyPage(() => import('./pages/Home'));
export const Login = lazyPage(() => import('./pages/Login'));
export const Register = lazyPage(() => import('./pages/Register'));
export const ForgotPassword = lazyPage(() => import('./pages/ForgotPassword'));
export const ResetPassword = lazyPage(() => import('./pages/ResetPassword'));
export const Join = lazyPage(() => import('./pages/Join'));
export const CompleteAccount = lazyPage(() => import('./pages/CompleteAccount'));
export const CompleteSignup = lazyPage(() => import('./pages/CompleteSignup'));
export const Shell = lazyPage(() => import('./pages/Shell'));
export const Profile = lazyPage(() => import('./pages/Profile'));
export const Agents = lazyPage(() => import('./pages/Agents'));
export const ConfabAgents = lazyPage(() => import('./pages/ConfabAgents'));
export const DropsFeed = lazyPage(() => import('./pages/DropsFeed'));
export const Drop = lazyPage(() => import('./pages/Drop'));
export const ChatHome = lazyPage(() => import('./pages/ChatHome'));
export const NewChat = lazyPage(() => import('./pages/NewChat'));
export const Chat = lazyPage(() => import('./pages/Chat'));
export const ChatOptions = lazyPage(() => import('./pages/ChatOptions'));
export const InviteUser = lazyPage(() => import('./pages/InviteUser'));
export const ChatDrops = lazyPage(() => import('./pages/ChatDrops'));
