/**
 * OCS: once made 0023's user check hold users with advisory locks instead of row locks. Undone by
 * migration 0030 (foreign keys again), so a database created since skips it; the entry stays for the
 * databases that applied it.
 */
export async function up(): Promise<void> {}

export async function down(): Promise<void> {}
