/**
 * The shipped sample corpus (public/samples/): its documents, added like dropped files, and its
 * labelled question set (questions.jsonl: answers marked by hand, stated as such in every
 * figure), so a newcomer can open Evaluate, read its recommendations and try an answer run
 * without preparing anything. The questions are added only to an empty question set: a user's
 * own questions are never mixed with them. (Apart from corpus-actions.ts: the question set's
 * module imports the controller, which re-exports the corpus actions.)
 */
import type { Document } from '../core/types';
import { addFiles } from './corpus-actions';
import { labWorker } from './lab-client';
import { errorText } from './messages';
import { importQuestionFiles } from './question-files';
import { refreshQuestions, useQuestionSet } from './question-set';
import { useCorpus } from './stores';

interface SampleManifest {
  documents: { file: string }[];
  questions?: { file: string };
}

/** Fetches the sample documents (same origin) and adds them, then the sample question set. */
export async function loadSampleCorpus(): Promise<void> {
  const base = new URL('./samples/', document.baseURI);
  const manifest = (await (await fetch(new URL('manifest.json', base))).json()) as SampleManifest;
  const files = await Promise.all(manifest.documents.map(async (d) => new File([await (await fetch(new URL(d.file, base))).arrayBuffer()], d.file.split('/').pop()!)));
  await addFiles(files);
  if (!manifest.questions) return;
  try {
    await addSampleQuestions(new URL(manifest.questions.file, base));
  } catch (e) {
    useCorpus.setState((s) => ({ problems: [...s.problems, `The sample question set could not be added: ${errorText(e)}`] }));
  }
}

async function addSampleQuestions(url: URL): Promise<void> {
  const lab = labWorker();
  if (!lab) return;
  await refreshQuestions();
  if (useQuestionSet.getState().set?.questions.length) return;
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const ids = (useCorpus.getState().status?.docs ?? []).map((d) => d.id);
  const docs: Document[] = await Promise.all(ids.map((docId) => lab.request('getDocument', { docId }).promise));
  const { result } = importQuestionFiles([{ name: url.pathname.split('/').pop()!, bytes }], docs, 'jsonl');
  const questions = result.set.questions.map(({ id: _id, ...q }) => q);
  if (questions.length) await lab.request('questionsAdd', { questions }).promise;
  await refreshQuestions();
}
