import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import routeModules from './routeModules.json';

export type PageName = keyof typeof routeModules.pages;

// Every page is its own chunk, fetched the first time a route renders it. routeModules.json names
// the module of each page; scripts/sizeBudget.mjs reads the same file to hold routes to budgets.
const loaders = import.meta.glob<{ default: ComponentType<never> }>('./pages/*.tsx');

/**
 * The lazily loaded page `name` (its module's default export). `Props` is the page's own props
 * type: the module is only known at run time, so the caller states it.
 */
export function lazyPage<Props extends object = object>(name: PageName): LazyExoticComponent<ComponentType<Props>> {
  const path = routeModules.pages[name];
  const load = loaders[path.replace(/^src\//, './')];
  if (load === undefined) throw new Error(`routeModules.json names ${path}, which is not a page in src/pages.`);
  return lazy(load as () => Promise<{ default: ComponentType<Props> }>);
}
