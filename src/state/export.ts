/**
 * Export of the corpus and one column as a bundle (.zip, made in the lab worker and
 * downloaded from a blob: URL — nothing leaves the machine), and the check of that very zip
 * in PostgreSQL (PGlite + pgvector in a worker of its own).
 */
import type { ColumnSpec, ExportQuestions } from '../worker/protocol';
import { useBundle } from './bundle-store';
import { useGeneration } from './generation';
import { labWorker } from './controller';
import { errorText } from './messages';
import { verifyInPostgres } from './postgres-client';
import { useView } from './stores';

/** `rag-lab-bundle-2026-11-22.zip` (the local date). */
export function bundleFileName(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `rag-lab-bundle-${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}.zip`;
}

/** Saves a blob: URL under a file name, as a download (no server involved). */
export function download(url: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/** Exports `column` with the view's retrieval parameters, then downloads the zip. */
export async function exportBundle(column: ColumnSpec, questions: ExportQuestions): Promise<void> {
  const lab = labWorker();
  if (!lab || useBundle.getState().exporting) return;
  const previous = useBundle.getState().exported;
  useBundle.setState({ exporting: { phase: 'export', done: 0, total: 1 }, exportError: null, verified: null, verifyError: null });
  try {
    const params = { ...useView.getState().view.retrieval, retriever: column.retriever };
    // The Generator panel's query transformation goes with the configuration (manifest and framework code).
    const g = useGeneration.getState().settings;
    const queryTransform = g.queryTransform !== 'none' ? { transform: g.queryTransform, tools: g.tools, variants: g.fusionVariants } : null;
    const { zip, ...summary } = await lab.request('exportBundle', { strategy: column.strategy, params, questions, ...(queryTransform ? { queryTransform } : {}) }, { onProgress: (p) => useBundle.setState({ exporting: p }) }).promise;
    if (previous) URL.revokeObjectURL(previous.url);
    const exported = { summary, zip, fileName: bundleFileName(), url: URL.createObjectURL(zip) };
    useBundle.setState({ exported });
    download(exported.url, exported.fileName);
  } catch (e) {
    useBundle.setState({ exportError: errorText(e) });
  } finally {
    useBundle.setState({ exporting: null });
  }
}

/** Loads the bundle just exported into PGlite and checks its golden run. */
export async function verifyExported(): Promise<void> {
  const { exported, verifying } = useBundle.getState();
  if (!exported || verifying) return;
  useBundle.setState({ verifying: { phase: 'unzip', done: 0, total: 1 }, verified: null, verifyError: null });
  try {
    const verified = await verifyInPostgres(exported.zip, (p) => useBundle.setState({ verifying: p }));
    useBundle.setState({ verified });
  } catch (e) {
    useBundle.setState({ verifyError: errorText(e) });
  } finally {
    useBundle.setState({ verifying: null });
  }
}
