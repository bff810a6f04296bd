import { BundleError } from '../core/export/format';
import { RpcError } from '../rpc/wire';
import { BUNDLE_REFUSED, type BundleRefusal } from './protocol';

/** A BundleError (the core's one sentence about a bad bundle) becomes the refusal the page words; anything else stays as it is. */
export function asRefusal(e: unknown): unknown {
  return e instanceof BundleError ? new RpcError<typeof BUNDLE_REFUSED, BundleRefusal>(BUNDLE_REFUSED, e.message, { message: e.message }) : e;
}
