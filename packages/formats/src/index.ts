/** @cellcloud/formats — readers, writers and file properties. No Node imports here (see node-sources). */
export * from './matrix';
export * from './errors';
export * from './sources';
export * from './gzip';
export * from './archive';
export * from './csc';
export * from './mtx-parse';
export * from './tables';
export * from './h5-io';
export * from './h5ad-elements';
export * from './read-10x-mtx';
export * from './read-10x-h5';
export * from './read-h5ad';
export * from './read-dense-text';
export * from './read-celescope';
export * from './detect';
export * from './properties';
