/**
 * Where the e2e app is served. E2E_PORT and E2E_DIST let several people (or agents) run
 * specs at once on one machine without sharing a port or a build folder; CI uses the defaults.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_DIST = process.env.E2E_DIST ?? 'dist';
export const ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
