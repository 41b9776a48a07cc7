import fs from 'node:fs';
import path from 'node:path';

export default async function globalTeardown(): Promise<void> {
  const file = process.env.PORTAL_TEST_TEMPLATE;
  if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
