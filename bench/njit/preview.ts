/**
 * A roster previewed from memory in this thread, for the benches that seed students: the file is saved
 * first and prepared from there, as the import route does with an upload (on its worker thread).
 */
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { DB } from '../../server/db/schema';
import { createTempFile, removeTempFile } from '../../server/lib/spool';
import type { Actor } from '../../server/modules/audit';
import { previewImport } from '../../server/modules/njit/imports';
import { prepareRosterUpload } from '../../server/modules/njit/prepare';

export async function previewRoster(db: Kysely<DB>, actor: Actor, fileName: string, body: string | Buffer) {
  const file = await createTempFile('upload');
  try {
    await fs.promises.writeFile(file, body);
    return await previewImport(db, prepareRosterUpload, actor, fileName, file);
  } finally {
    await removeTempFile(file);
  }
}
