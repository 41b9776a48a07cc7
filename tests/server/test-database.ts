/**
 * The embedded database's buffer cache in tests (PGLITE_SHARED_BUFFERS). Postgres clears all of its
 * cache when it starts: at the default 128MB that is most of a start's second, and the suite starts
 * PGlite over a hundred times. Test databases are a few megabytes.
 */
export const TEST_SHARED_BUFFERS = '16MB';

/** What the server suite's spawned servers add to their environment (benches and e2e run as a user would). */
export const TEST_SERVER_ENV = { PGLITE_SHARED_BUFFERS: TEST_SHARED_BUFFERS };
