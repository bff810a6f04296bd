import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The workplace's shared evaluation data and demo documents (beside the checkout, as
 * ../shared/data); RAG_LAB_SHARED_DATA overrides it.
 */
export const SHARED_DATA = resolve(process.env.RAG_LAB_SHARED_DATA ?? resolve(PROJECT_ROOT, '../shared/data'));

/** The self-hosted model folder; the generated test models live here. */
export const PROJECT_MODELS_DIR = resolve(PROJECT_ROOT, 'public/models');
