/**
 * rag-lab's dispatcher: parses the arguments and hands each command to its module
 * (src/cli/commands, questions-commands.ts, export-commands.ts); the options and their
 * readers are in options.ts, the help in help.ts. Returns the exit code and never exits, so
 * the tests can run a command in their own process (cli-runner.ts); main.ts is the entry.
 *   index <files…> --out corpus.json     files → a saved corpus (documents + vectors)
 *   query "question" <files…|--corpus F>  each strategy's blocks as a readable table
 *   eval --data PATH                      dataset + strategies + params → metrics table
 */
import { reportFailure } from './failure';
import { HELP } from './help';
import { parse } from './options';
import { QUESTIONS_HELP } from './option-tables';
import { UsageError } from './usage';

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(HELP + QUESTIONS_HELP);
    return command || values.help ? 0 : 2;
  }
  try {
    // Each command's modules load when it runs: --help and a BM25 query never load transformers.js, PGlite or pdf.js.
    if (command === 'index') await (await import('./commands/index-command')).cmdIndex(values, rest);
    else if (command === 'query') await (await import('./commands/query-command')).cmdQuery(values, rest);
    else if (command === 'eval') await (await import('./commands/eval-command')).cmdEval(values, rest);
    else if (command === 'questions') {
      const [{ cmdQuestions }, { questionDeps }] = await Promise.all([import('./questions-commands'), import('./engine-setup')]);
      await cmdQuestions(values, rest, questionDeps);
    } else if (command === 'export' || command === 'verify') {
      const [{ cmdExport, cmdVerify }, { exportDeps }] = await Promise.all([import('./export-commands'), import('./export-deps')]);
      if (command === 'verify') return await cmdVerify(values, rest, exportDeps);
      await cmdExport(values, rest, exportDeps);
    } else throw new UsageError(`unknown command "${command}" (index, query, eval, export, verify, questions)`);
    return 0;
  } catch (e) {
    // One error: line, exit 2, whatever failed; the stack only with --debug.
    return reportFailure(e, Boolean(values.debug));
  }
}
