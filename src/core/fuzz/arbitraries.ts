/**
 * Random hostile input for the property tests and `npm run fuzz` (fast-check): text with
 * NULs, controls, lone surrogates, right-to-left marks, mixed scripts and `\.` lines; and
 * random structures for the SQuAD, BEIR and JSONL/CSV readers.
 */
import fc from 'fast-check';

/** Characters that broke something once, or could. */
const NASTY = ['\u0000', '\u0001', '\u0007', '\u001b', '\u001b[2J', '\u007f', '\u009b', '\ud800', '\udfff', '\ud83d', '\u202e', '\u200f', '\u200b', '\ufeff', '\ufffd', '\t', '\r', '\r\n', '\\', '\\.', '$$', "'", '"', ';DROP TABLE x;--', 'E\'\\x00\''];
const WORDS = ['solar', 'panel', 'energy', 'Rhine', 'river', 'sea', 'Dr.', 'U.S.', 'água', 'Straße', '中文', '東京', 'عربي', 'עברית', 'русский', '😀', 'e\u0301', '1.5', '42'];

/** A piece of a line: a word, a nasty character, or any string of code points (surrogate halves included). */
const piece = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...WORDS) }, { weight: 2, arbitrary: fc.constantFrom(...NASTY) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) });

const line = fc.oneof({ weight: 6, arbitrary: fc.array(piece, { minLength: 1, maxLength: 12 }).map((p) => p.join(' ') + '.') }, { weight: 1, arbitrary: fc.constant('\\.') }, { weight: 1, arbitrary: fc.constant('') });

/** A document's text: lines and blank lines of the above. */
export const hostileText = fc.array(line, { minLength: 1, maxLength: 12 }).map((l) => l.join('\n'));

/** A short question made of the same pieces. */
export const hostileQuestion = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join(' '));

/** A language tag as users give them: valid, POSIX style, or nonsense. */
export const languageTag = fc.oneof(fc.constantFrom('en', 'en_US', 'pt-BR', 'zh-Hans', 'x', 'en-', '123', 'not a tag', ''), fc.string({ maxLength: 8 }));

/** Any JSON-like value, with hostile strings among them. */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constantFrom('26', '-1', '1e3', ' 7 ', 'NaN'),
    hostileQuestion,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('text', 'answer_start', 'answers', 'question', 'id', 'qas', 'context', 'title', '_id', 'x'), tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** A SQuAD-shaped file whose fields are sometimes of the wrong type. */
export const squadJson = fc.record({
  data: fc.oneof(
    { weight: 5, arbitrary: fc.array(
      fc.record({
        title: fc.oneof(hostileQuestion, value),
        paragraphs: fc.oneof({ weight: 5, arbitrary: fc.array(
          fc.record({
            context: fc.oneof({ weight: 4, arbitrary: hostileText }, { weight: 1, arbitrary: value }),
            qas: fc.oneof({ weight: 4, arbitrary: fc.array(
              fc.record({
                id: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), value),
                question: fc.oneof({ weight: 3, arbitrary: hostileQuestion }, { weight: 1, arbitrary: value }),
                answers: fc.oneof({ weight: 3, arbitrary: fc.array(fc.record({ text: fc.oneof(fc.constantFrom('solar', 'river', '.'), value), answer_start: fc.oneof(fc.nat(200), fc.constantFrom('3', '0'), value), answer_start_candidates: fc.oneof(fc.array(fc.nat(200), { maxLength: 3 }), value) }, { requiredKeys: ['text'] }), { maxLength: 3 }) }, { weight: 1, arbitrary: value }),
                is_impossible: fc.oneof(fc.boolean(), value),
              }, { requiredKeys: ['question'] }),
              { maxLength: 4 },
            ) }, { weight: 1, arbitrary: value }),
          }, { requiredKeys: [] }),
          { maxLength: 3 },
        ) }, { weight: 1, arbitrary: value }),
      }, { requiredKeys: [] }),
      { maxLength: 3 },
    ) },
    { weight: 1, arbitrary: value },
  ),
});

/** A JSONL file: object lines with BEIR/question fields of any type, broken lines, a BOM sometimes. */
export const jsonlText = fc
  .tuple(
    fc.boolean(),
    fc.array(
      fc.oneof(
        { weight: 5, arbitrary: fc.record({ _id: fc.oneof(fc.constantFrom('d1', 'd2', 'q1', 'q2', 1, 2), value), text: fc.oneof(hostileText, value), title: fc.oneof(hostileQuestion, value), question: fc.oneof(hostileQuestion, value), answer: fc.oneof(fc.constantFrom('solar', 'river'), value), document: value }, { requiredKeys: [] }).map((o) => JSON.stringify(o)) },
        { weight: 1, arbitrary: fc.constantFrom('not json', '[1,2]', 'null', '"x"', '{"_id":') },
      ),
      { maxLength: 6 },
    ),
  )
  .map(([bom, lines]) => (bom ? '\ufeff' : '') + lines.join('\n'));

/** A CSV question set: a header (sometimes wrong), rows with quotes, controls and surrogates. */
export const csvText = fc
  .tuple(fc.boolean(), fc.constantFrom('question,answer', 'question,document', 'query,answer', 'foo,bar', ''), fc.array(fc.tuple(hostileQuestion, fc.oneof(fc.constantFrom('solar', 'river', 'doc0.txt'), hostileQuestion)), { maxLength: 5 }))
  .map(([bom, header, rows]) => (bom ? '\ufeff' : '') + [header, ...rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(','))].join('\n'));

/** A qrels TSV over the ids the JSONL generator uses, with bad lines. */
export const qrelsText = fc.array(fc.oneof(fc.tuple(fc.constantFrom('q1', 'q2', '1', '2', 'x'), fc.constantFrom('d1', 'd2', '1', '2'), fc.constantFrom('1', '2', '0', 'abc', '')).map((c) => c.join('\t')), hostileQuestion), { maxLength: 6 }).map((l) => 'query-id\tcorpus-id\tscore\n' + l.join('\n'));
