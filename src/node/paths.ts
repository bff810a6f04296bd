import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The checkout: two folders above src/node/, or one above the CLI bundle (dist-cli/, scripts/build-cli.mjs). */
export const PROJECT_ROOT = basename(here) === 'dist-cli' ? resolve(here, '..') : resolve(here, '../..');

/**
 * The workplace's shared evaluation data and demo documents (beside the checkout, as
 * ../shared/data); RAG_LAB_SHARED_DATA overrides it.
 */
export const SHARED_DATA = resolve(process.env.RAG_LAB_SHARED_DATA ?? resolve(PROJECT_ROOT, '../shared/data'));

/** The self-hosted model folder; the generated test models live here. */
export const PROJECT_MODELS_DIR = resolve(PROJECT_ROOT, 'public/models');
