/**
 * The on-disk count store (issue 33; docs/formats/count-store.md): cell-major chunks and a
 * gene-major copy, bit-packed, written once by streaming and read by positional reads.
 */
export { CountStoreWriter, type CountStoreHeader, type CountStoreWriterOptions } from './writer';
export { bytesRandomAccess, openCountStore, type CountStore } from './reader';
export { writeStoreFrom10xMtx, type StoreWriteOptions, type StoreWriteResult } from './from-mtx';
export { writeStoreFromH5ad } from './from-h5ad';
