/**
 * Makes 重试 after a failed page chunk really load the chunk again.
 *
 * Umi creates every page as `React.lazy(() => import(...))`. When the import fails, React keeps the
 * rejected result and rethrows it on every render, so re-rendering alone can never recover; webpack,
 * on the other hand, forgets a failed chunk and fetches it again on the next import(). So we remember
 * each page's import function while it is still pending, and on retry put it back into the lazy
 * components whose load failed. (Umi's own route preloading reads the same `_payload._result`.)
 */

/** React 18's lazy payload: status -1 uninitialized, 0 pending, 1 resolved, 2 rejected. */
interface LazyPayload {
  _status: number;
  _result: unknown;
}

const UNINITIALIZED = -1;
const REJECTED = 2;

const imports = new Map<LazyPayload, () => Promise<unknown>>();

function payloadOf(component: unknown): LazyPayload | undefined {
  const payload = (component as { _payload?: LazyPayload } | null)?._payload;
  return payload && typeof payload._status === 'number' ? payload : undefined;
}

/** Records the import function of every page component not loaded yet. */
export function rememberPageImports(components: Record<string, unknown> | undefined): void {
  for (const component of Object.values(components ?? {})) {
    const payload = payloadOf(component);
    if (
      payload &&
      payload._status === UNINITIALIZED &&
      typeof payload._result === 'function' &&
      !imports.has(payload)
    ) {
      imports.set(payload, payload._result as () => Promise<unknown>);
    }
  }
}

/** Lets every page whose chunk failed to load try again on its next render; returns how many. */
export function resetFailedPageImports(): number {
  let reset = 0;
  for (const [payload, load] of imports) {
    if (payload._status === REJECTED) {
      payload._status = UNINITIALIZED;
      payload._result = load;
      reset++;
    }
  }
  return reset;
}
