/** Reads a part of the wallet, and reads it again whenever the wallet process pushes one of `topics`. */
import { useEffect, useState } from 'preact/hooks';
import type { PushTopic } from '../api-types.js';
import { failure, get, onPush } from './api.js';

export interface Loaded<T> {
  value?: T;
  error?: string;
}

export function useData<T>(path: string, topics: PushTopic[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({});
  useEffect(() => {
    let live = true;
    const load = (): void =>
      void get<T>(path).then(
        (value) => live && setLoaded({ value }),
        (error: unknown) => live && setLoaded((before) => ({ ...before, error: failure(error) })),
      );
    load();
    const stop = onPush((topic) => topics.includes(topic) && load());
    return () => {
      live = false;
      stop();
    };
  }, [path]);
  return loaded;
}
