/** A user error: printed as one line, exit code 2 (failure.ts knows it by its name). */
export class UsageError extends Error {}

/** The usage error, for the command modules that take it as a dependency. */
export const usage = (message: string) => new UsageError(message);
