/**
 * What the README and docs/ promise a reader can follow: every relative link names a file
 * (and, with #anchor, a heading) that exists, and every `npm run X` names a script in
 * package.json. Pure functions over file contents, so the test can also feed it bad pages.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface DocProblem {
  file: string;
  line: number;
  problem: string;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (m) out.add(headingSlug(m[1]!));
  }
  return out;
}

/** The Markdown pages a newcomer reads: README.md and every docs/**.md. */
export function docPages(root: string): string[] {
  const walk = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [])) : [];
  return ['README.md', ...walk(join(root, 'docs')).map((f) => relative(root, f))];
}

export function checkDocs(root: string, pages: string[], scripts: Record<string, string>): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const page of pages) {
    const text = readFileSync(join(root, page), 'utf8');
    text.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, blob:
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path ? resolve(dirname(join(root, page)), path) : join(root, page);
        if (!existsSync(file)) {
          problems.push({ file: page, line: i + 1, problem: `links to ${path}, which does not exist` });
          continue;
        }
        if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor)) {
          problems.push({ file: page, line: i + 1, problem: `links to #${anchor} in ${relative(root, file)}, which has no such heading` });
        }
      }
      for (const m of line.matchAll(/npm run ([a-z][\w:.-]*)/g)) {
        if (!(m[1]! in scripts)) problems.push({ file: page, line: i + 1, problem: `names npm run ${m[1]}, which package.json does not define` });
      }
    });
  }
  return problems;
}
