import { lazy, type ComponentType } from 'react';

/**
 * `React.lazy` whose code can be fetched ahead (`preload`, e.g. when a menu opens) and which, once
 * fetched, renders without suspending. A lazy component suspends on its first render even when its
 * module is already loaded, and React then waits out its Suspense throttle (about 300 ms) before
 * showing it: a modal opened from a prefetched menu appeared that much later.
 */
export function preloadableLazy<Props extends object>(
  factory: () => Promise<{ default: ComponentType<Props> }>,
) {
  let loaded: ComponentType<Props> | undefined;
  const preload = () =>
    factory().then((module) => {
      loaded = module.default;
    });
  const Lazy = lazy(() => preload().then(() => ({ default: loaded ?? missing })));
  function Preloadable(props: Props) {
    const Component = loaded ?? Lazy;
    return <Component {...props} />;
  }
  return { Component: Preloadable, preload };
}

function missing(): never {
  throw new Error('A preloaded module had no default component');
}
