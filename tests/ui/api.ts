/**
 * The API as a UI test sees it. A test file replaces the one way the UI calls the API with jest's
 * automatic mock of `@/services/call` (jest.mock of that path, no factory; the words are kept out of
 * this file because the test transformer treats any file containing the call specially), and then
 * answers per endpoint descriptor (the same object the page calls):
 *
 *   answer(api.overview, { success: true, data });            every call, until the test ends
 *   answerOnce(api.overview, { success: true, data });        the next call only (before the standing answer)
 *   answer(api.listLedger, async ({ query }) => page(query)); an answer computed from what was sent
 *   fail(api.createUpstream, { response: { status: 400 } });  the call rejects with this error
 *
 * and checks what was sent with `sent(api.create)` (the inputs of its calls, oldest first), `callsOf(api.create)`
 * (inputs with options) or `expect(call).toHaveBeenCalledWith(api.create, input, options)`. A call to an endpoint the test
 * did not answer stays pending. Answers and recorded calls are forgotten before each test.
 */
import type { AnswerOf, Endpoint, InputOf } from '@/contract/endpoint';
import { call, upload } from '@/services/call';
import type { RequestOptions } from '@umijs/max';

/** What the page passed after the descriptor: the input and options of call(), or upload()'s file. */
type Args<E> = E extends { multipart?: true }
  ? [file: Blob, onProgress?: (percent: number) => void, options?: RequestOptions]
  : [input: InputOf<E>, options?: RequestOptions];
type Reply<E> = AnswerOf<E> | ((...args: Args<E>) => Promise<AnswerOf<E>>);
type Outcome = { reply: unknown } | { error: unknown };

const standing = new Map<Endpoint, Outcome>();
const once = new Map<Endpoint, Outcome[]>();

function settle(endpoint: Endpoint, args: unknown[]): Promise<unknown> {
  const outcome = once.get(endpoint)?.shift() ?? standing.get(endpoint);
  // Unanswered: pending, as behind a slow server (the shell tests open pages whose data they ignore).
  if (!outcome) return new Promise(() => undefined);
  if ('error' in outcome) return Promise.reject(outcome.error);
  const { reply } = outcome;
  return Promise.resolve(typeof reply === 'function' ? (reply as (...a: unknown[]) => unknown)(...args) : reply);
}

beforeEach(() => {
  standing.clear();
  once.clear();
  jest.mocked(call).mockClear();
  jest.mocked(upload).mockClear();
  jest
    .mocked(call)
    .mockImplementation(((endpoint: Endpoint, input: unknown = {}, options?: RequestOptions) =>
      settle(endpoint, options === undefined ? [input] : [input, options])) as typeof call);
  jest
    .mocked(upload)
    .mockImplementation(((endpoint: Endpoint, ...rest: unknown[]) => settle(endpoint, rest)) as typeof upload);
});

/** Every call of the endpoint gets this answer (or the answer the function computes from its input). */
export function answer<E extends Endpoint>(endpoint: E, reply: Reply<E>): void {
  standing.set(endpoint, { reply });
}

/** The next call of the endpoint gets this answer; calls after it get the next one, then the standing one. */
export function answerOnce<E extends Endpoint>(endpoint: E, reply: Reply<E>): void {
  once.set(endpoint, [...(once.get(endpoint) ?? []), { reply }]);
}

/** Every call of the endpoint rejects with this error (an axios-like `{ response: { status, data } }`). */
export function fail(endpoint: Endpoint, error: unknown): void {
  standing.set(endpoint, { error });
}

/** The next call of the endpoint rejects with this error. */
export function failOnce(endpoint: Endpoint, error: unknown): void {
  once.set(endpoint, [...(once.get(endpoint) ?? []), { error }]);
}

/** The arguments after the descriptor of each call of the endpoint, oldest first: `[input, options?]` or `[file, …]`. */
export function callsOf<E extends Endpoint>(endpoint: E): unknown[][] {
  return [...jest.mocked(call).mock.calls, ...jest.mocked(upload).mock.calls]
    .filter(([e]) => e === endpoint)
    .map(([, ...args]) => args);
}

/** The inputs the page sent to the endpoint, oldest first (for an upload, the files). */
export function sent<E extends Endpoint>(endpoint: E): Args<E>[0][] {
  return callsOf(endpoint).map(([input]) => (input ?? {}) as Args<E>[0]);
}
