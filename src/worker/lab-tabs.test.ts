import { describe, expect, it } from 'vitest';
import { RpcError } from '../rpc/wire';
import { file, labHarness } from './lab-harness';
import { Persistence } from './persistence';
import type { WorkerStatus } from './protocol';

/**
 * Two tabs' labs on one storage (fake-indexeddb), each behind its RPC as the page sees it; they
 * hear each other on the lab's BroadcastChannel (Node has one). The page's Web Lock is played
 * by the test: it says which lab owns (init's `owner`, own, yieldLab).
 */
const { startLab, freshStorage } = labHarness();

async function tab(owner: boolean) {
  const { client, until, lab, latest } = await startLab({ owner });
  return { client, until, lab, titles: () => latest().docs.map((d) => d.title) };
}

const TEA = '# Tea\n\nBlack tea is fully oxidised before drying. Green tea is steamed to stop oxidation.';
const HARBOUR = '# Harbour\n\nThe harbour opens at dawn. Fishing boats leave before six.';
const QUAY = '# Quay\n\nThe quay is stone. Its bollards are iron.';
const titles = (s: WorkerStatus) => s.docs.map((d) => d.title);

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'not refused';
  } catch (e) {
    return (e as RpcError).code;
  }
}

describe('two tabs of the lab', () => {
  it('the tab that does not own the lab follows what the owner stores, refuses changes, and takes over without losing either tab\'s work', async () => {
    freshStorage();
    const a = await tab(true);
    const b = await tab(false);
    expect(b.lab.ownsLab).toBe(false);
    await a.client.request('addFiles', { files: [file('tea.md', TEA)] }).promise;
    await b.until((s) => titles(s).join() === 'Tea' && s.lab?.owner === false);

    // A change asked of the read-only tab is refused: nothing of it is stored.
    expect(await refusal(b.client.request('addFiles', { files: [file('harbour.md', HARBOUR)] }).promise)).toBe('read-only');
    expect(await refusal(b.client.request('questionsAdd', { questions: [{ question: 'When?', answers: [], unanswerable: true, source: { kind: 'marked' } }] }).promise)).toBe('read-only');
    expect(await refusal(b.client.request('clear', {}).promise)).toBe('read-only');

    // Questions stored by the owner are read by the other tab.
    await a.client.request('questionsAdd', { questions: [{ question: 'Which tea is steamed?', answers: [], unanswerable: true, source: { kind: 'marked' } }] }).promise;
    await b.until((s) => (s.lab?.followed ?? 0) > 0);
    await expect.poll(async () => (await b.client.request('questionsList', {}).promise).questions.map((q) => q.question)).toEqual(['Which tea is steamed?']);

    // B takes the lab, politely: A hands over first, then B reads the storage and writes.
    await a.client.request('yieldLab', {}).promise;
    const owned = await b.client.request('own', {}).promise;
    expect(owned.lab?.owner).toBe(true);
    await b.client.request('addFiles', { files: [file('harbour.md', HARBOUR)] }).promise;
    await a.until((s) => titles(s).join() === 'Tea,Harbour' && s.lab?.owner === false);

    // A, taken over without being asked (its page hung): its next write is refused by the
    // storage, and it follows B from then on; the document it added only in memory goes.
    await b.client.request('yieldLab', {}).promise;
    await a.client.request('own', {}).promise;
    await b.client.request('own', {}).promise;
    await a.client.request('addFiles', { files: [file('quay.md', QUAY)] }).promise;
    await a.until((s) => s.lab?.owner === false && titles(s).join() === 'Tea,Harbour');

    // B removes Tea: A follows, and a later start reads both tabs' work.
    const tea = (await b.until(() => true)).docs.find((d) => d.title === 'Tea')!.id;
    await b.client.request('removeDocument', { docId: tea }).promise;
    await a.until((s) => titles(s).join() === 'Harbour');
    const next = new Persistence();
    await next.open();
    expect((await next.load())!.docs.map((d) => d.title)).toEqual(['Harbour']);
    expect((await next.loadQuestions())!.questions.map((q) => q.question)).toEqual(['Which tea is steamed?']);
  });
});
