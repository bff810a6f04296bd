/**
 * Entry of the lab's module worker. The RPC listens before anything heavy is imported
 * (messages that arrive while a top-level import is still loading would be lost); the lab
 * itself is imported on the first request. Its handlers: lab-handlers.ts.
 */
import { serve, type RpcServer } from '../rpc/server';
import type { RpcPort } from '../rpc/wire';
import { labHandlers } from './lab-handlers';
import { LAB_TAG, type LabApi, type LabEvents } from './protocol';

type Lab = import('./lab').Lab;

let lab: Promise<Lab> | null = null;

const server: RpcServer<LabEvents> = serve<LabApi, LabEvents>(
  self as unknown as RpcPort,
  LAB_TAG,
  // OCR's browser setup (ocr-env) loads with the lab: it only names where tesseract's files are.
  labHandlers(() => (lab ??= Promise.all([import('./lab'), import('./ocr-env')]).then(([{ Lab }]) => new Lab((status) => server.emit('status', status), (work) => server.serial(work))))),
);
