/** A small two-document corpus for the question tests (whitespace word counts as tokens). */
import { documentFromText } from '../documents/load';
import type { TokenCounter } from '../segment/tokens';
import { buildCorpus, type Corpus } from '../structure/corpus';

export const WORDS: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };

export const TOWER_MD = [
  '# The tower',
  'The Eiffel Tower was completed in March 1889 for the World Fair in Paris. It is made of wrought iron and weighs about 7,300 tonnes.',
  '## Design',
  'The tower was designed by the engineering firm of Gustave Eiffel. Maurice Koechlin and Émile Nouguier drew the first sketches in 1884. The architect Stephen Sauvestre added the decorative arches.',
  '## Visitors',
  'Nearly seven million people visit the tower every year. Visitors can climb 674 steps to the second floor. Lifts carry them to the top, 276 metres above the ground.',
].join('\n\n');

export const BRIDGE_TXT = 'The Golden Gate Bridge opened in May 1937 after four years of work. Its main span is 1,280 metres long and was the longest in the world until 1964.';

export function towerCorpus(): Corpus {
  const tower = documentFromText(TOWER_MD, 'tower.md', 'md', 'en');
  const bridge = documentFromText(BRIDGE_TXT, 'bridge.txt', 'txt', 'en');
  return buildCorpus([tower, bridge], WORDS);
}
