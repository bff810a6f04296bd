/**
 * One dropped file read into a Document for the lab, with its progress: refused alone when the
 * size estimate says it would not fit (the drop's other files still go in), or loaded (OCR
 * progress included), or the loader's reason it could not be.
 */
import { LoaderError } from '../core/documents/builder';
import { loadDocument } from '../core/documents/load';
import type { Document } from '../core/types';
import type { RpcContext } from '../rpc/server';
import type { FileProblem, FileProgress, InputFileMessage, LoadRefusal } from './protocol';

export type FileOutcome = { doc: Document } | { problem: FileProblem };

export interface IntakeOptions {
  /** The size estimate's verdict (null: it fits, or the user chose to load it anyway). */
  refusal: (f: InputFileMessage) => LoadRefusal | null;
  /** Fault injection (robustness tests): a "__crash__" file crashes the worker. */
  faults: boolean;
}

export async function readInputFile(f: InputFileMessage, at: { index: number; total: number }, ctx: RpcContext<FileProgress>, options: IntakeOptions): Promise<FileOutcome> {
  const { index, total } = at;
  const refusal = options.refusal(f);
  if (refusal) {
    ctx.progress({ kind: 'file', file: f.name, stage: 'failed', index, total });
    return { problem: { code: 'too-large', refusal } };
  }
  ctx.progress({ kind: 'file', file: f.name, stage: 'parse', index, total });
  if (options.faults && f.name.includes('__crash__')) {
    // Simulated crash: an uncaught error, and this request never answers.
    setTimeout(() => {
      throw new Error(`simulated worker crash while indexing ${f.name}`);
    }, 0);
    await new Promise(() => undefined);
  }
  try {
    const doc = await loadDocument(
      { name: f.name, bytes: new Uint8Array(f.bytes), ...(f.lastModified ? { lastModified: f.lastModified } : {}), ...(f.language ? { language: f.language } : {}) },
      { signal: ctx.signal, onOcrProgress: (p) => ctx.progress({ kind: 'file', file: f.name, stage: 'parse', index, total, ocr: { page: p.page, pages: p.pages, remainingMs: p.remainingMs } }) },
    );
    return { doc };
  } catch (e) {
    ctx.progress({ kind: 'file', file: f.name, stage: 'failed', index, total });
    return { problem: e instanceof LoaderError ? { code: 'rejected', message: e.message } : { code: 'unreadable', detail: (e as Error).message } };
  }
}
