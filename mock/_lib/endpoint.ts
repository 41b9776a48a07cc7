/**
 * Mocks keyed by the contract's endpoint descriptors: `on(ums.listChannels, handler)` answers the
 * descriptor's method and path in `max dev`, and `res.json` is typed by the descriptor's answer.
 */
import type { ErrorEnvelope } from '../../src/contract';
import { keyOf, type AnswerOf, type Endpoint } from '../../src/contract/endpoint';
import type { Req, Res } from './http';

export interface TypedRes<T> extends Res {
  json(body: T | ErrorEnvelope): void;
}

export type MockHandler<E> = (req: Req, res: TypedRes<AnswerOf<E>>) => void | Promise<void>;
type MockEntry = readonly [key: string, handler: (req: Req, res: Res) => void | Promise<void>];

export function on<E extends Endpoint>(endpoint: E, handler: MockHandler<E>): MockEntry {
  return [keyOf(endpoint), handler as MockEntry[1]];
}

/** The object Umi's mock server reads from a mock file's default export. */
export function defineMocks(...entries: MockEntry[]): Record<string, MockEntry[1]> {
  const out: Record<string, MockEntry[1]> = {};
  for (const [key, handler] of entries) {
    if (out[key]) throw new Error(`mock ${key} defined twice`);
    out[key] = handler;
  }
  return out;
}
