// One worker of a TaskPool (server/lib/worker-task.ts): runs an exported function of a TypeScript
// module and returns its result. Plain JS on purpose: a worker starts outside any TypeScript loader
// (tsx, jest), so it registers tsx itself, both hooks as the tsx CLI does.
import { pathToFileURL } from 'node:url';
import { register as registerCjs } from 'tsx/cjs/api';
import { register as registerEsm } from 'tsx/esm/api';

registerCjs();
registerEsm();

export default async function run({ modulePath, exportName, args }) {
  // Buffers cross the thread boundary as plain Uint8Arrays: give them back their Buffer methods.
  const input = args.map((a) => (a instanceof Uint8Array ? Buffer.from(a.buffer, a.byteOffset, a.byteLength) : a));
  const mod = await import(pathToFileURL(modulePath).href);
  const fn = mod[exportName] ?? mod.default?.[exportName];
  if (typeof fn !== 'function') throw new Error(`${modulePath} exports no function ${exportName}`);
  try {
    return { ok: true, value: await fn(...input) };
  } catch (err) {
    // HttpErrors carry what the client must see; everything else stays a plain error.
    const e = err ?? {};
    return {
      ok: false,
      error: { message: String(e.message ?? e), statusCode: e.statusCode, errorCode: e.errorCode, data: e.data },
    };
  }
}
