/**
 * OCS: once rewrote the free repeat's time bound in the charge functions' stored text. The bound (a
 * sub-select, so that a plan made while no query was recent still probes the cache index) is part of
 * ocs_charge_many's definition in server/db/functions/ocs_charge_many.sql, which migration 0030
 * creates; a database created since skips this one, and the entry stays for the databases that
 * applied it.
 */
export async function up(): Promise<void> {}

export async function down(): Promise<void> {}
