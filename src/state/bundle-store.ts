/**
 * The page's state of bundles: the export in progress or done (its zip kept for the download
 * and the Postgres check), the check's progress and report, and the import of a dropped bundle.
 */
import { create } from 'zustand';
import type { PostgresVerifyResult, VerifyProgress } from '../worker/postgres-protocol';
import type { ExportProgress, ExportSummary, ImportProgress, ImportSummary } from '../worker/protocol';

export interface ExportedBundle {
  summary: Omit<ExportSummary, 'zip'>;
  zip: Blob;
  fileName: string;
  /** Object URL of the zip (revoked when another export replaces it). */
  url: string;
}

interface BundleState {
  exporting: ExportProgress | null;
  exported: ExportedBundle | null;
  exportError: string | null;
  verifying: VerifyProgress | null;
  verified: PostgresVerifyResult | null;
  verifyError: string | null;
  importing: { file: string; progress: ImportProgress } | null;
  /** The last bundle imported, for the note under the drop zone. */
  imported: { file: string; summary: Omit<ImportSummary, 'status'> } | null;
}

export const useBundle = create<BundleState>(() => ({
  exporting: null,
  exported: null,
  exportError: null,
  verifying: null,
  verified: null,
  verifyError: null,
  importing: null,
  imported: null,
}));
