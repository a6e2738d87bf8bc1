/** @cellcloud/formats — readers, writers and file properties. No Node imports here (see node-sources). */
export * from './matrix';
export * from './errors';
export * from './sources';
export * from './gzip';
export * from './archive';
export * from './csc';
export * from './mtx-parse';
export * from './tables';
export * from './read-10x-mtx';
export * from './detect';
