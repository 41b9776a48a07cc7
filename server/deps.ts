/** What every module plugin is built from: the database, the configuration and the secret box. */
import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { DB } from './db/schema';
import type { SecretBox } from './lib/secretbox';

export interface AppDeps {
  db: Kysely<DB>;
  config: Config;
  /** Encrypts stored secrets (DingTalk webhooks, signing secrets, AI provider keys). */
  secrets: SecretBox;
  /** True on the embedded database, where this process is the only instance (see the DATA_DIR lock). */
  soleInstance?: boolean;
  /** The UMS worker's clock; tests inject one instead of sleeping. */
  clock?: () => Date;
}
